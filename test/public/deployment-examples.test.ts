// The deployment examples, checked without Docker or a cluster: compose.yaml and deploy/kubernetes agree with
// the image and with each other (ports, the shared Redis, the tokens file, probes), and the replicas they
// describe, run here with their environment on the built CLI, share state through one Redis behind a balancer.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { tokensFileYaml } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import {
  argsOf,
  argvHere,
  composeArgv,
  composeFile,
  containerEnv,
  dockerfileStages,
  envOf,
  execForm,
  interpolate,
  pathHere,
  kubernetesObjects,
  startCommand,
  type ComposeService,
  type RunningCommand,
} from '../support/deployment-files.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { BUNDLE_DIR, REPO_ROOT } from '../support/paths.js';
import { freePort } from '../support/free-port.js';
import { sharedRedisUrl, uniqueNamespace } from '../support/redis.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import { connectHttp } from '../support/sdk-client.js';

const image = dockerfileStages().at(-1)!;
const imageEnv = envOf(image);
const workdir = argsOf(image, 'WORKDIR').at(-1)!;
const entrypoint = execForm(argsOf(image, 'ENTRYPOINT')[0]!).map((a) => pathHere(a, workdir));

/** The replicas' store, moved from the example's Redis host to the tests' Redis (same database, own namespace). */
function storeOnTestRedis(exampleUrl: string, testRedis: string): string {
  const example = new URL(exampleUrl);
  const test = new URL(testRedis);
  test.pathname = example.pathname;
  return test.href;
}

describe('compose.yaml: two replicas behind a load balancer, sharing Redis', () => {
  const { services } = composeFile();
  const app = services['mcp-devtools'] as unknown as ComposeService & {
    build: string;
    deploy: { replicas: number };
    environment: Record<string, string>;
    volumes: string[];
    depends_on: Record<string, { condition: string }>;
  };
  const lb = services.lb as { ports: string[]; volumes: string[] };
  const redis = services.redis as { healthcheck?: unknown };
  /** The replicas' command line: the image's command, after the store URL made from the secret file. */
  const command = composeArgv(app);
  const storeExpression = /MCP_STORE_URL="([^"]+)"/.exec(command.join(' '))![1]!;
  /** The file a container path of the app's volumes comes from, in this repository. */
  const mounted = (target: string): string => join(REPO_ROOT, app.volumes.map((v) => v.split(':')).find(([, t]) => t === target)![0]!);

  it('runs two replicas of the image built here, after Redis is healthy, with the store on the Redis service', () => {
    expect(app.build).to.equal('.');
    expect(app.deploy.replicas).to.equal(2);
    // The image's own command, run by the shell that reads the secret file.
    expect(command[2]).to.contain(`exec ${execForm(argsOf(image, 'ENTRYPOINT')[0]!).join(' ')} "$@"`);
    expect(app.command).to.deep.equal(execForm(argsOf(image, 'CMD')[0]!));
    const store = new URL(storeExpression.replace('$(cat /run/secrets/redis-password)', 'hex0password'));
    expect(store.protocol).to.equal('redis:');
    expect(store.password).to.equal('hex0password');
    expect(services[store.hostname], `no service named ${store.hostname}`).to.not.equal(undefined);
    expect(store.port || '6379').to.equal('6379');
    expect(app.depends_on[store.hostname]).to.deep.equal({ condition: 'service_healthy' });
    expect(redis.healthcheck).to.not.equal(undefined);
  });

  it('mounts the tokens file where the image reads it, the policy it names, and the balancer forwards to the port the image serves', () => {
    expect(app.volumes.map((v) => v.split(':')[1])).to.include(imageEnv.MCP_AUTH_TOKENS_FILE);
    expect(mounted(app.environment.MCP_POLICY_FILE!)).to.equal(join(REPO_ROOT, 'deploy/compose/policy.yaml'));
    expect(app.volumes).to.include(`audit:${dirname(app.environment.MCP_AUDIT_LOG!)}`);
    const config = lb.volumes.map((v) => v.split(':')).find(([, target]) => target === '/etc/nginx/nginx.conf')!;
    const nginx = readFileSync(join(REPO_ROOT, config[0]!), 'utf8');
    expect(nginx).to.contain(`server mcp-devtools:${imageEnv.MCP_HTTP_PORT};`);
    const listen = /listen (\d+);/.exec(nginx)![1]!;
    expect(lb.ports).to.deep.equal([`${imageEnv.MCP_HTTP_PORT}:${listen}`]);
  });

  describe('its replicas, run here with their command line and environment', () => {
    const caller = canary('mcp-caller-');
    const scraper = canary('metrics-');
    const github = canary('ghp_');
    let replicas: RunningCommand[] = [];
    let upstream: MockUpstream;
    let audit: string;

    before(async () => {
      const testRedis = await sharedRedisUrl();
      upstream = await MockUpstream.start();
      const dir = mkdtempSync(join(tmpdir(), 'compose-run-'));
      audit = join(dir, 'audit');
      mkdirSync(audit);
      writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml([{ token: caller, subject: 'alice' }]));
      const vars = { MCP_METRICS_TOKEN: scraper, GITHUB_TOKEN: github };
      const composeEnv = Object.fromEntries(Object.entries(app.environment).map(([k, v]) => [k, interpolate(String(v), vars)]));
      const env = {
        PATH: process.env.PATH ?? '',
        ...imageEnv,
        ...composeEnv,
        // What differs on this machine: the mounted files' paths, a free port each, the vendor stand-in.
        MCP_STORE_NAMESPACE: uniqueNamespace('compose'),
        MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
        MCP_POLICY_FILE: mounted(composeEnv.MCP_POLICY_FILE!),
        MCP_AUDIT_LOG: join(audit, basename(composeEnv.MCP_AUDIT_LOG!)),
        GITHUB_API_URL: upstream.url,
      };
      // ...the Redis: the tests' own (no password), in place of the URL made from the secret file; and each
      // replica's host name, which containers have of their own and processes on one machine share.
      const store = storeOnTestRedis(storeExpression.replace('$(cat /run/secrets/redis-password)', 'x'), testRedis);
      for (let i = 0; i < app.deploy.replicas; i++) {
        const home = mkdtempSync(join(tmpdir(), 'compose-home-'));
        const argv = argvHere(command, { [`${workdir}/dist/`]: `${BUNDLE_DIR}/`, [storeExpression]: store, '$(hostname)': `replica-${i + 1}` });
        replicas.push(await startCommand(argv, { ...env, HOME: home, MCP_HTTP_PORT: String(await freePort()) }, home));
      }
    });
    after(async () => {
      for (const replica of replicas) for (const line of replica.stderr) leakAudit.transcript('compose replica stderr', line);
      await Promise.all(replicas.map((r) => r.stop()));
      replicas = [];
      await upstream?.close();
    });

    it('are scraped with MCP_METRICS_TOKEN, and with no caller token', async () => {
      for (const replica of replicas) {
        const metrics = `${new URL(replica.url).origin.replace('0.0.0.0', '127.0.0.1')}/metrics`;
        expect((await fetch(metrics, { headers: { authorization: `Bearer ${scraper}` } })).status).to.equal(200);
        expect((await fetch(metrics, { headers: { authorization: `Bearer ${caller}` } })).status).to.equal(401);
      }
    });

    it('answer one client through a round-robin balancer: an artifact saved by one replica is read through the other', async () => {
      upstream.on('GET', '/repos/acme/api/actions/jobs/9/logs', { body: 'line 1\nline 2\nthe failure\n', headers: { 'content-type': 'text/plain' } });
      const origins = replicas.map((r) => new URL(r.url).origin.replace('0.0.0.0', '127.0.0.1'));
      const balancer = await startRoundRobinProxy(() => origins);
      const client = await connectHttp(balancer.url, caller);
      try {
        const logs = (await client.callTool({ name: 'github_get_job_logs', arguments: { owner: 'acme', repo: 'api', jobId: 9 } })) as CallToolResult;
        const artifactId = /artifact ([0-9a-f]+)/.exec((logs.content[0] as { text: string }).text)![1]!;
        const read = (await client.callTool({ name: 'artifact_read', arguments: { artifactId } })) as CallToolResult;
        const chunk = JSON.parse((read.content[0] as { text: string }).text) as { data: string; eof: boolean };
        expect(Buffer.from(chunk.data, 'base64').toString('utf8')).to.equal('line 1\nline 2\nthe failure\n');
        expect(new Set(balancer.routed).size).to.equal(2);
      } finally {
        await client.close();
        await balancer.close();
      }
    });

    it('each replica appends its own audit chain on the shared volume, named after its host name', () => {
      // Each chain beside its head (the last record's hash, which verify checks the chain against).
      const chains = readdirSync(audit)
        .filter((f) => !f.endsWith('.head'))
        .sort();
      expect(chains).to.deep.equal(['audit.jsonl.replica-1', 'audit.jsonl.replica-2']);
      for (const chain of chains) expect(readFileSync(join(audit, chain), 'utf8').trim().split('\n').length, chain).to.be.at.least(1);
    });
  });
});

describe('deploy/kubernetes: a Deployment of two replicas with probes, a Service, and Redis', () => {
  const app = kubernetesObjects('mcp-devtools.yaml');
  const redis = kubernetesObjects('redis.yaml');
  type Container = {
    args: string[];
    ports: Array<{ name: string; containerPort: number }>;
    env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string }; fieldRef?: { fieldPath: string } } }>;
    volumeMounts: Array<{ name: string; mountPath: string }>;
    readinessProbe: { httpGet: { path: string; port: string } };
    livenessProbe: { httpGet: { path: string; port: string } };
    securityContext: { readOnlyRootFilesystem?: boolean };
  };
  const deployment = app.find((o) => o.kind === 'Deployment')!;
  const pod = (
    deployment.spec as {
      template: {
        metadata: { labels: Record<string, string> };
        spec: {
          securityContext: { runAsNonRoot: boolean; runAsUser: number };
          containers: Container[];
          volumes: Array<{ name: string; secret?: { items: Array<{ key: string; path: string }> }; emptyDir?: object }>;
        };
      };
    }
  ).template;
  const container = pod.spec.containers[0]!;
  const envValue = (name: string): string | undefined => container.env.find((e) => e.name === name)?.value;

  it("runs two replicas of the image's command, as a user that is not root", () => {
    expect((deployment.spec as { replicas: number }).replicas).to.equal(2);
    expect(container.args).to.deep.equal(execForm(argsOf(image, 'CMD')[0]!));
    expect(pod.spec.securityContext.runAsNonRoot).to.equal(true);
    expect(pod.spec.securityContext.runAsUser).to.not.equal(0);
  });

  it('probes /healthz on the port the image serves, and the Service routes to that port', () => {
    const port = container.ports.find((p) => p.name === container.readinessProbe.httpGet.port)!;
    expect(String(port.containerPort)).to.equal(imageEnv.MCP_HTTP_PORT);
    expect(container.readinessProbe.httpGet.path).to.equal('/healthz');
    expect(container.livenessProbe.httpGet).to.deep.equal(container.readinessProbe.httpGet);
    const service = app.find((o) => o.kind === 'Service')!.spec as { selector: Record<string, string>; ports: Array<{ targetPort: string }> };
    expect(pod.metadata.labels).to.deep.include(service.selector);
    expect(service.ports[0]!.targetPort).to.equal(port.name);
  });

  it('shares the Redis Service as its store, and mounts the tokens file where the image reads it', () => {
    const store = new URL(envValue('MCP_STORE_URL')!);
    const redisService = redis.find((o) => o.kind === 'Service' && o.metadata.name === store.hostname);
    expect(redisService, `no Service named ${store.hostname}`).to.not.equal(undefined);
    expect((redisService!.spec as { ports: Array<{ port: number }> }).ports[0]!.port).to.equal(Number(store.port || 6379));
    const tokens = imageEnv.MCP_AUTH_TOKENS_FILE!;
    const mount = container.volumeMounts.find((m) => tokens.startsWith(`${m.mountPath}/`))!;
    const volume = pod.spec.volumes.find((v) => v.name === mount.name)!;
    expect(volume.secret!.items.map((i) => `${mount.mountPath}/${i.path}`)).to.include(tokens);
  });

  it('decides every call by the policy of its ConfigMap (deploy/compose/policy.yaml) and keeps the audit log on its volume claim', () => {
    const mountOf = (path: string) => container.volumeMounts.find((m) => path.startsWith(`${m.mountPath}/`))!;
    const policy = mountOf(envValue('MCP_POLICY_FILE')!);
    const policyVolume = pod.spec.volumes.find((v) => v.name === policy.name) as { configMap?: { name: string } };
    const configMap = app.find((o) => o.kind === 'ConfigMap' && o.metadata.name === policyVolume.configMap!.name) as unknown as {
      data: Record<string, string>;
    };
    expect(configMap.data[basename(envValue('MCP_POLICY_FILE')!)]).to.equal(readFileSync(join(REPO_ROOT, 'deploy/compose/policy.yaml'), 'utf8'));
    const audit = mountOf(envValue('MCP_AUDIT_LOG')!);
    const auditVolume = pod.spec.volumes.find((v) => v.name === audit.name) as { persistentVolumeClaim?: { claimName: string } };
    expect(app.find((o) => o.kind === 'PersistentVolumeClaim')?.metadata.name).to.equal(auditVolume.persistentVolumeClaim!.claimName);
    expect(container.env.find((e) => e.name === 'MCP_AUDIT_WRITER')?.valueFrom).to.deep.equal({ fieldRef: { fieldPath: 'metadata.name' } });
  });

  it('has a writable /tmp under a read-only root: the only place the server writes', () => {
    expect(container.securityContext.readOnlyRootFilesystem).to.equal(true);
    const tmp = container.volumeMounts.find((m) => m.mountPath === '/tmp')!;
    expect(pod.spec.volumes.find((v) => v.name === tmp.name)!.emptyDir).to.not.equal(undefined);
  });

  it("starts with the Deployment's command and environment, and answers its probes", async () => {
    const testRedis = await sharedRedisUrl();
    const dir = mkdtempSync(join(tmpdir(), 'kube-run-'));
    writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml([{ token: canary('mcp-caller-'), subject: 'alice' }]));
    const secrets: Record<string, string> = { 'metrics-token': canary('metrics-'), 'redis-password': canary('redis-') };
    const podEnv = containerEnv(container.env, secrets);
    const port = String(await freePort());
    const server = await startCommand(
      [...entrypoint, ...container.args],
      {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ...imageEnv,
        ...podEnv,
        MCP_STORE_URL: storeOnTestRedis(podEnv.MCP_STORE_URL!, testRedis),
        MCP_STORE_NAMESPACE: uniqueNamespace('kube'),
        MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
        // The ConfigMap's policy (deploy/compose/policy.yaml, word for word) and the audit volume, as mounted here.
        MCP_POLICY_FILE: join(REPO_ROOT, 'deploy/compose/policy.yaml'),
        MCP_AUDIT_LOG: join(dir, 'audit.jsonl'),
        MCP_HTTP_PORT: port,
      },
      dir,
    );
    try {
      const probe = await fetch(`http://127.0.0.1:${port}${container.readinessProbe.httpGet.path}`);
      expect(probe.status).to.equal(200);
    } finally {
      for (const line of server.stderr) leakAudit.transcript('kubernetes pod stderr', line);
      await server.stop();
    }
  });
});
