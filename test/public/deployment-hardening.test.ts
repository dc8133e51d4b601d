// What the deployment examples promise an operator about security, read from the files themselves: the
// Kubernetes pods pass Pod Security "restricted" and a NetworkPolicy lets through only what the server needs,
// Redis requires a password everywhere (which no committed file holds), and the image's base is named by version
// with a documented way to pin it by digest.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { OLDEST_SUPPORTED_NODE } from '../../server/cli/runtime-support.js';
import { tokensFileYaml } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import {
  allKubernetesObjects,
  argsOf,
  composeFile,
  containerEnv,
  dockerfileArgs,
  dockerfileStages,
  envOf,
  execForm,
  interpolate,
  pathHere,
  resolvedFrom,
  startCommand,
} from '../support/deployment-files.js';
import { freePort } from '../support/free-port.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { allowsEgress, allowsIngress, type Connection, type NetworkPolicy, type Peer } from '../support/network-policy.js';
import { REPO_ROOT } from '../support/paths.js';
import { restrictedViolations, type PodSpec } from '../support/pod-security.js';
import { REDIS_BINARY_MISSING, redisServerAvailable } from '../support/redis.js';

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

type Container = {
  name: string;
  args?: string[];
  ports: Array<{ name: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>;
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

  it('lets only the server reach Redis, and Redis reach nothing', () => {
    expect(allowsIngress(policies, to(redis, here(app), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(true);
    expect(allowsIngress(policies, to(redis, here({ app: 'agent' }), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(false);
    expect(allowsIngress(policies, to(redis, elsewhere(app, 'other'), 'TCP', redisPort.containerPort, redisPort.name))).to.equal(false);
    expect(allowsEgress(policies, to(redis, { ip: '140.82.112.6' }, 'TCP', 443))).to.equal(false);
  });
});

/** One RESP command over a plain socket: Redis's first answer line. */
function redisAnswer(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.once('data', (data) => {
      resolve(data.toString('utf8').split('\r\n')[0]!);
      socket.end();
    });
    socket.once('error', reject);
  });
}

async function untilAnswers(port: number, child: ChildProcess): Promise<void> {
  for (const deadline = Date.now() + 10_000; ;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    try {
      await redisAnswer(port, 'PING');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe("compose.yaml's Redis requires a password, which only an uncommitted env file holds", () => {
  const { services } = composeFile();
  const app = services['mcp-devtools'] as { environment: Record<string, string> };
  const redis = services.redis as { command: string[]; environment: Record<string, string>; healthcheck: { test: string[] } };
  const password = canary('redis-');
  const vars = { REDIS_PASSWORD: password, MCP_ADMIN_TOKEN: canary('admin-') };

  it('refuses to run without REDIS_PASSWORD, which neither compose.yaml nor any committed file sets', () => {
    expect(() => redis.command.map((a) => interpolate(a, {}))).to.throw('compose.yaml needs REDIS_PASSWORD');
    expect(() => interpolate(app.environment.MCP_STORE_URL!, { MCP_ADMIN_TOKEN: 'x' })).to.throw('compose.yaml needs REDIS_PASSWORD');
    const at = redis.command.indexOf('--requirepass');
    expect(redis.command[at + 1]).to.match(/^\$\{REDIS_PASSWORD:\?[^}]+\}$/);
    // Compose reads variables from the shell or from .env beside compose.yaml, which git ignores.
    expect(read('.gitignore').split('\n')).to.include('.env');
    expect(new URL(interpolate(app.environment.MCP_STORE_URL!, vars)).password).to.equal(password);
  });

  describe('run here with its command and environment', () => {
    let port: number;
    let server: ChildProcess;

    before(async function () {
      if (!redisServerAvailable()) throw new Error(REDIS_BINARY_MISSING);
      port = await freePort();
      const argv = redis.command.map((a) => interpolate(a, vars));
      expect(argv[0]).to.equal('redis-server');
      // What differs on this machine: the port, loopback, a scratch folder.
      const dir = mkdtempSync(join(tmpdir(), 'compose-redis-'));
      server = spawn('redis-server', [...argv.slice(1), '--port', String(port), '--bind', '127.0.0.1', '--dir', dir], { stdio: 'ignore' });
      await untilAnswers(port, server);
    });
    after(() => server?.kill('SIGKILL'));

    it('answers nothing without the password', async () => {
      expect(await redisAnswer(port, 'PING')).to.match(/^-NOAUTH/);
      expect(await redisAnswer(port, `AUTH ${password}`)).to.equal('+OK');
    });

    it('passes its health check with its own environment, and fails it without', () => {
      const check = redis.healthcheck.test;
      expect(check[0]).to.equal('CMD-SHELL');
      const command = check[1]!.replace(/\bredis-cli\b/g, `redis-cli -p ${port}`);
      const environment = Object.fromEntries(Object.entries(redis.environment).map(([k, v]) => [k, interpolate(v, vars)]));
      expect(spawnSync('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '', ...environment } }).status).to.equal(0);
      expect(spawnSync('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '' } }).status).to.not.equal(0);
    });

    it('the replicas reach it with the MCP_STORE_URL compose gives them; without the password the server says so', async () => {
      const image = dockerfileStages().at(-1)!;
      const workdir = argsOf(image, 'WORKDIR').at(-1)!;
      const entrypoint = execForm(argsOf(image, 'ENTRYPOINT')[0]!).map((a) => pathHere(a, workdir));
      const dir = mkdtempSync(join(tmpdir(), 'compose-app-'));
      writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml([{ token: canary('mcp-caller-'), subject: 'alice' }]));
      const store = new URL(interpolate(app.environment.MCP_STORE_URL!, vars));
      store.host = `127.0.0.1:${port}`;
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ...envOf(image),
        MCP_ADMIN_TOKEN: vars.MCP_ADMIN_TOKEN,
        MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
        MCP_STORE_URL: store.href,
        MCP_HTTP_PORT: String(await freePort()),
      };
      const running = await startCommand([...entrypoint, 'serve'], env, dir);
      for (const line of running.stderr) leakAudit.transcript('compose replica stderr', line);
      // It listens only once the store answered its start-up probe (write, read, delete) with the password.
      expect(running.url).to.match(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
      await running.stop();
      store.password = '';
      const refused = await startCommand([...entrypoint, 'serve'], { ...env, MCP_STORE_URL: store.href }, dir).then(
        async (r) => `started: ${await r.stop()}`,
        (error: Error) => error.message,
      );
      expect(refused)
        .to.contain(`MCP_STORE_URL=redis://127.0.0.1:${port}/0`)
        .and.to.match(/NOAUTH|password/i);
    });
  });
});

describe("deploy/kubernetes's Redis requires a password from the Secret", () => {
  it("Redis starts with the Secret's password and its probe authenticates; the server's MCP_STORE_URL carries the same one", () => {
    const redis = containerOf('redis');
    const password = canary('redis-');
    const secrets = { 'redis-password': password };
    const redisEnv = containerEnv(redis.env ?? [], secrets);
    const args = (redis.args ?? []).map((a) => a.replace(/\$\((\w+)\)/g, (m, v: string) => redisEnv[v] ?? m));
    expect(args[args.indexOf('--requirepass') + 1]).to.equal(password);
    // redis-cli reads the password of its probe from REDISCLI_AUTH.
    expect(redisEnv.REDISCLI_AUTH).to.equal(password);
    expect(redis.readinessProbe?.exec?.command.join(' ')).to.contain('redis-cli');
    const app = containerOf('mcp-devtools');
    const store = new URL(containerEnv(app.env ?? [], secrets).MCP_STORE_URL!);
    expect(store.password).to.equal(password);
    const fromSecret = [...(redis.env ?? []), ...(app.env ?? [])].filter((e) => e.valueFrom?.secretKeyRef.key === 'redis-password');
    expect(fromSecret.map((e) => e.valueFrom!.secretKeyRef.name)).to.deep.equal(['mcp-devtools', 'mcp-devtools', 'mcp-devtools']);
    expect(read('deploy/kubernetes/redis.yaml') + read('deploy/kubernetes/mcp-devtools.yaml')).not.to.contain(password);
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
