// What the deployment examples promise an operator about security, read from the files themselves: the
// Kubernetes pods pass Pod Security "restricted" and a NetworkPolicy lets through only what the server needs
// (and the receivers an operator labels), Redis requires a password everywhere, read from a secret file and on
// no command line, and every image is named by version with a documented way to pin it by digest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { OLDEST_SUPPORTED_NODE } from '../../server/cli/runtime-support.js';
import { tokensFileYaml } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { redisAnswer, startComposeRedis, type ComposeRedis } from '../support/compose-redis.js';
import {
  allKubernetesObjects,
  argsOf,
  argvHere,
  composeArgv,
  composeFile,
  containerEnv,
  dockerfileArgs,
  dockerfileStages,
  envOf,
  resolvedFrom,
  startCommand,
  type ComposeService,
} from '../support/deployment-files.js';
import { freePort } from '../support/free-port.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { allowsEgress, allowsIngress, type Connection, type NetworkPolicy, type Peer } from '../support/network-policy.js';
import { BUNDLE_DIR, REPO_ROOT } from '../support/paths.js';
import { restrictedViolations, type PodSpec } from '../support/pod-security.js';
import { REDIS_BINARY_MISSING, redisServerAvailable } from '../support/redis.js';

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

type Container = {
  name: string;
  args?: string[];
  ports: Array<{ name: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } } }>;
  readinessProbe?: { exec?: { command: string[] } };
};
type Workload = { kind: string; metadata: { name: string }; spec: { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } } };

const objects = allKubernetesObjects();
const workloads = objects.filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind)) as unknown as Workload[];
const workload = (name: string): Workload => workloads.find((w) => w.metadata.name === name)!;
const containerOf = (name: string): Container => workload(name).spec.template.spec.containers[0] as unknown as Container;

describe('deploy/kubernetes passes Pod Security "restricted"', () => {
  it('the check finds what "restricted" refuses (a pod as most examples write it)', () => {
    const plain: PodSpec = {
      containers: [{ name: 'app', securityContext: { runAsUser: 0, capabilities: { add: ['NET_ADMIN'] } } }],
      volumes: [{ name: 'host', hostPath: { path: '/var/run' } }],
    };
    expect(restrictedViolations(plain)).to.deep.equal([
      'volume host: hostPath volumes are forbidden',
      'container app: allowPrivilegeEscalation must be false',
      'container app: runAsNonRoot must be true (on the pod or the container)',
      'container app: runAsUser must not be 0',
      'container app: seccompProfile.type must be RuntimeDefault or Localhost (on the pod or the container)',
      'container app: capabilities must drop ALL',
      'container app: capability NET_ADMIN may not be added',
    ]);
  });

  it('every pod of every manifest: seccomp RuntimeDefault, not root, no privilege escalation, every capability dropped', () => {
    expect(workloads.map((w) => w.metadata.name).sort()).to.deep.equal(['mcp-devtools', 'redis']);
    for (const w of workloads) {
      expect(restrictedViolations(w.spec.template.spec), w.metadata.name).to.deep.equal([]);
      expect(w.spec.template.spec.securityContext?.seccompProfile?.type, w.metadata.name).to.equal('RuntimeDefault');
    }
  });
});

describe('deploy/kubernetes ships a NetworkPolicy: in to the server port, out to DNS, Redis and HTTPS only', () => {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as unknown as NetworkPolicy[];
  const app = workload('mcp-devtools').spec.template.metadata.labels;
  const redis = workload('redis').spec.template.metadata.labels;
  const http = containerOf('mcp-devtools').ports.find((p) => p.name === 'http')!;
  const redisPort = containerOf('redis').ports[0]!;
  const here = (pod: Record<string, string>): Peer => ({ pod, namespace: { 'kubernetes.io/metadata.name': 'tools' }, sameNamespace: true });
  const elsewhere = (pod: Record<string, string>, namespace: string): Peer => ({
    pod,
    namespace: { 'kubernetes.io/metadata.name': namespace },
    sameNamespace: false,
  });
  const dns = elsewhere({ 'k8s-app': 'kube-dns' }, 'kube-system');
  const to = (pod: Record<string, string>, peer: Peer, protocol: 'TCP' | 'UDP', port: number, portName?: string): Connection => ({
    pod,
    peer,
    protocol,
    port,
    portName,
  });

  it("lets anyone reach the server's port, and nothing else of its pods", () => {
    for (const peer of [here({ app: 'agent' }), elsewhere({ app: 'ingress-nginx' }, 'ingress'), { ip: '203.0.113.7' }])
      expect(allowsIngress(policies, to(app, peer, 'TCP', http.containerPort, http.name)), JSON.stringify(peer)).to.equal(true);
    expect(allowsIngress(policies, to(app, here({ app: 'agent' }), 'TCP', 22))).to.equal(false);
    expect(allowsIngress(policies, to(app, here({ app: 'agent' }), 'UDP', http.containerPort, http.name))).to.equal(false);
  });

  it('lets the server ask the cluster DNS, its Redis and any HTTPS API, and nothing else', () => {
    expect(allowsEgress(policies, to(app, dns, 'UDP', 53))).to.equal(true);
    expect(allowsEgress(policies, to(app, dns, 'TCP', 53))).to.equal(true);
    expect(allowsEgress(policies, to(app, { ip: '8.8.8.8' }, 'UDP', 53)), 'DNS elsewhere').to.equal(false);
    expect(allowsEgress(policies, to(app, here(redis), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(true);
    expect(allowsEgress(policies, to(app, here({ app: 'postgres' }), 'TCP', 5432))).to.equal(false);
    expect(allowsEgress(policies, to(app, here(redis), 'TCP', 22))).to.equal(false);
    expect(allowsEgress(policies, to(app, { ip: '140.82.112.6' }, 'TCP', 443)), 'a vendor API').to.equal(true);
    expect(allowsEgress(policies, to(app, { ip: '140.82.112.6' }, 'TCP', 80)), 'plain HTTP').to.equal(false);
    expect(allowsEgress(policies, to(app, { ip: '169.254.169.254' }, 'TCP', 443)), 'the cloud metadata address').to.equal(false);
  });

  it('lets the server reach an in-cluster trace collector and webhook receiver once they carry the receiver label, and nothing unlabelled', () => {
    const collector = elsewhere({ 'app.kubernetes.io/name': 'opentelemetry-collector', 'mcp-devtools/receiver': 'otlp' }, 'observability');
    const unlabelled = elsewhere({ 'app.kubernetes.io/name': 'opentelemetry-collector' }, 'observability');
    const receiver = here({ app: 'approvals-bot', 'mcp-devtools/receiver': 'webhook' });
    expect(allowsEgress(policies, to(app, collector, 'TCP', 4318)), 'OTLP/HTTP to a labelled collector').to.equal(true);
    expect(allowsEgress(policies, to(app, unlabelled, 'TCP', 4318)), 'a collector without the label').to.equal(false);
    expect(allowsEgress(policies, to(app, collector, 'TCP', 4317)), 'OTLP/gRPC, which the server does not speak').to.equal(false);
    expect(allowsEgress(policies, to(app, receiver, 'TCP', 8080)), 'a labelled webhook receiver').to.equal(true);
    expect(allowsEgress(policies, to(app, here({ app: 'approvals-bot' }), 'TCP', 8080)), 'a receiver without the label').to.equal(false);
    expect(allowsEgress(policies, to(redis, collector, 'TCP', 4318)), 'Redis').to.equal(false);
  });

  it('lets only the server reach Redis, and Redis reach nothing', () => {
    expect(allowsIngress(policies, to(redis, here(app), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(true);
    expect(allowsIngress(policies, to(redis, here({ app: 'agent' }), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(false);
    expect(allowsIngress(policies, to(redis, elsewhere(app, 'other'), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(false);
    expect(allowsEgress(policies, to(redis, { ip: '140.82.112.6' }, 'TCP', 443))).to.equal(false);
  });
});

describe("compose.yaml's Redis: its configuration file, and a password from a secret file on no command line", () => {
  const { services } = composeFile();
  const app = services['mcp-devtools'] as ComposeService;
  const redis = services.redis as unknown as ComposeService & { healthcheck: { test: string[] } };
  const secrets = (composeFile() as unknown as { secrets: Record<string, { file: string }> }).secrets;
  const password = canary('redis-');

  it('reads deploy/compose/redis.conf and the secret file, which git ignores; no password in compose.yaml, its variables or an argument', () => {
    expect(redis.volumes).to.include('./deploy/compose/redis.conf:/usr/local/etc/redis/redis.conf:ro');
    expect(secrets['redis-password']!.file).to.equal('./deploy/compose/secrets/redis-password');
    expect(read('.gitignore').split('\n')).to.include('/deploy/compose/secrets/');
    expect(app.secrets).to.deep.equal(['redis-password']);
    expect(redis.secrets).to.deep.equal(['redis-password']);
    const compose = read('compose.yaml');
    expect(compose).not.to.match(/requirepass"?\s*,|--requirepass|REDIS_PASSWORD/);
    expect(read('deploy/compose/redis.conf')).not.to.match(/^requirepass/m);
  });

  describe('run here with its command line', () => {
    let server: ComposeRedis;
    before(async function () {
      if (!redisServerAvailable()) throw new Error(REDIS_BINARY_MISSING);
      server = await startComposeRedis(password);
    });
    after(() => server?.stop('SIGKILL'));

    it('answers nothing without the password, and its command line does not hold it', async () => {
      expect(await redisAnswer(server.port, 'PING')).to.match(/^-NOAUTH/);
      expect(await redisAnswer(server.port, `AUTH ${password}`)).to.equal('+OK');
      expect(server.cmdline())
        .to.match(/^redis-server 127\.0\.0\.1:\d+/)
        .and.not.to.contain(password);
    });

    it('passes its health check with the secret file, and fails it without', () => {
      const check = redis.healthcheck.test;
      expect(check[0]).to.equal('CMD-SHELL');
      const command = (secretsDir: string): string =>
        argvHere([check[1]!.replaceAll('$$', '$')], { '/run/secrets/': `${secretsDir}/` })[0]!.replace(/\bredis-cli\b/g, `redis-cli -p ${server.port}`);
      expect(spawnSync('sh', ['-c', command(server.secrets)], { env: { PATH: process.env.PATH ?? '' } }).status).to.equal(0);
      expect(spawnSync('sh', ['-c', command(mkdtempSync(join(tmpdir(), 'no-secrets-')))], { env: { PATH: process.env.PATH ?? '' } }).status).to.not.equal(0);
    });

    it('the replicas reach it with the command line compose gives them (the URL made from the secret file); without the file the server says so', async () => {
      const image = dockerfileStages().at(-1)!;
      const workdir = argsOf(image, 'WORKDIR').at(-1)!;
      const dir = mkdtempSync(join(tmpdir(), 'compose-app-'));
      writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml([{ token: canary('mcp-caller-'), subject: 'alice' }]));
      const argv = (secretsDir: string): string[] =>
        argvHere(composeArgv(app), { [`${workdir}/dist/`]: `${BUNDLE_DIR}/`, '/run/secrets/': `${secretsDir}/`, '@redis:6379/': `@127.0.0.1:${server.port}/` });
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ...envOf(image),
        MCP_METRICS_TOKEN: canary('metrics-'),
        MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
        MCP_HTTP_PORT: String(await freePort()),
      };
      const running = await startCommand(argv(server.secrets), env, dir);
      for (const line of running.stderr) leakAudit.transcript('compose replica stderr', line);
      // It listens only once the store answered its start-up probe (write, read, delete) with the password.
      expect(running.url).to.match(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
      expect(readFileSync(`/proc/${running.process.pid}/cmdline`, 'utf8')).not.to.contain(password);
      await running.stop();
      const refused = await startCommand(argv(mkdtempSync(join(tmpdir(), 'no-secrets-'))), env, dir).then(
        async (r) => `started: ${await r.stop()}`,
        (error: Error) => error.message,
      );
      expect(refused).to.match(/NOAUTH|password/i);
    });
  });
});

describe("deploy/kubernetes's Redis: the password from the Secret, as a file", () => {
  it("Redis reads the Secret's redis-password file on standard input, no argument or variable holds it; the server's MCP_STORE_URL carries the same one", () => {
    const redis = containerOf('redis') as Container & { command: string[]; volumeMounts: Array<{ name: string; mountPath: string }> };
    const pod = workload('redis').spec.template.spec as PodSpec & {
      volumes: Array<{ name: string; secret?: { secretName: string; items: Array<{ key: string; path: string }> } }>;
    };
    const script = [...redis.command, ...(redis.args ?? [])].join(' ');
    expect(script)
      .to.contain('exec redis-server /usr/local/etc/redis/redis.conf - <<EOF')
      .and.to.contain('requirepass $(cat /run/secrets/redis/redis-password)');
    expect(script).not.to.contain('--requirepass');
    expect(redis.env ?? []).to.deep.equal([]);
    const mount = redis.volumeMounts.find((m) => m.mountPath === '/run/secrets/redis')!;
    const volume = pod.volumes.find((v) => v.name === mount.name)!;
    expect(volume.secret).to.deep.equal({ secretName: 'mcp-devtools', items: [{ key: 'redis-password', path: 'redis-password' }] });
    expect(redis.readinessProbe?.exec?.command.join(' ')).to.contain('REDISCLI_AUTH="$(cat /run/secrets/redis/redis-password)" redis-cli');
    const password = canary('redis-');
    const app = containerOf('mcp-devtools');
    expect(new URL(containerEnv(app.env ?? [], { 'redis-password': password }).MCP_STORE_URL!).password).to.equal(password);
  });

  it('keeps its data on a volume claim of its StatefulSet, and its ConfigMap is deploy/compose/redis.conf word for word', () => {
    const set = workload('redis') as Workload & { kind: string; spec: { volumeClaimTemplates: Array<{ metadata: { name: string } }> } };
    expect(set.kind).to.equal('StatefulSet');
    const data = (containerOf('redis') as Container & { volumeMounts: Array<{ name: string; mountPath: string }> }).volumeMounts.find(
      (m) => m.mountPath === '/data',
    )!;
    expect(set.spec.volumeClaimTemplates.map((t) => t.metadata.name)).to.include(data.name);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'redis-config') as unknown as { data: Record<string, string> };
    expect(config.data['redis.conf']).to.equal(read('deploy/compose/redis.conf'));
  });
});

describe("the image's base is named by version, and can be pinned by digest as documented", () => {
  const args = dockerfileArgs();
  const version = args.NODE_VERSION!;
  const base = `node:${version}-bookworm-slim`;

  it('names an exact Node.js release of a supported LTS line, the same base for every stage', () => {
    expect(version).to.match(/^\d+\.\d+\.\d+$/);
    const major = Number(version.split('.')[0]);
    expect(major)
      .to.be.at.least(OLDEST_SUPPORTED_NODE)
      .and.to.satisfy((m: number) => m % 2 === 0, 'an even major: an LTS line');
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(major).to.be.at.least(Number(/\d+/.exec(engines)![0]));
    expect(dockerfileStages().map((s) => resolvedFrom(s))).to.deep.equal(dockerfileStages().map(() => base));
    // Every stage takes its base from one argument, so one --build-arg pins all of them.
    expect(new Set(dockerfileStages().map((s) => s.from))).to.deep.equal(new Set(['${NODE_IMAGE}']));
  });

  it('the Dockerfile and docs/deployment.md show the build that pins it by digest, for this version', () => {
    const pin = `--build-arg NODE_IMAGE=${base}@sha256:`;
    const inspect = `docker buildx imagetools inspect ${base}`;
    for (const file of ['Dockerfile', 'docs/deployment.md']) {
      expect(read(file), file).to.contain(pin);
      expect(read(file), file).to.contain(inspect);
    }
  });
});

describe('every image of the examples is named by an exact version, and docs/deployment.md shows how to pin it by digest', () => {
  const composed = Object.values(composeFile().services).map((service) => (service as ComposeService).image!);
  const kubernetes = workloads.flatMap((w) => (w.spec.template.spec.containers as unknown as Array<{ image: string }>).map((c) => c.image));
  const version = (JSON.parse(read('package.json')) as { version: string }).version;

  it('compose.yaml and deploy/kubernetes: x.y.z tags, mcp-devtools by the package version', () => {
    expect(composed).to.have.length(3);
    for (const image of [...composed, ...kubernetes]) expect(image, image).to.match(/^[\w./-]+:\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(composed).to.include(`mcp-devtools:${version}`);
    expect(kubernetes).to.include(`mcp-devtools:${version}`);
    // One Redis for both examples.
    expect(kubernetes.filter((i) => i.startsWith('redis:'))).to.deep.equal(composed.filter((i) => i.startsWith('redis:')));
  });

  it('the digest of each image the examples pull is shown being looked up, and the pin written', () => {
    const doc = read('docs/deployment.md');
    for (const image of new Set([...composed, ...kubernetes].filter((i) => !i.startsWith('mcp-devtools:')))) {
      expect(doc, image).to.contain(`docker buildx imagetools inspect ${image}`);
      expect(doc, image).to.contain(`${image}@sha256:`);
    }
  });
});
