import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { Decision } from '../../plugins/policy/engine/policy-engine.js';
import { ARTIFACT_NOT_FOUND_TEXT, readArtifact } from '../support/artifact-reader.js';
import { sleep } from '../support/async.js';
import { sharedRedisUrl, uniqueNamespace } from '../support/redis.js';
import { APPROVER_TOKENS, decideOnAdminEndpoint, REPLICA_PLUGINS, vendorCredentials, writeDeployment, type Deployment } from '../support/replica-deployment.js';
import { SHORT_LIVED_SECONDS, startVendorUpstreams, type VendorUpstreams } from '../support/replica-upstreams.js';
import { startReplicas, stopReplicas, type Replica } from '../support/replicas.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.js';
import { runCli } from '../support/run-cli.js';
import { connectHttp } from '../support/sdk-client.js';
import { sqliteFile } from '../support/store-backends.js';

/** Where a caller's requests go, and which replica (its origin) answered the latest of them. */
interface Lane {
  client(): Promise<Client>;
  answered(requests?: number): string[];
}

/**
 * How rene reaches "replica A" and "replica B": with a client on each (so A and B are exactly those), or with
 * one session through the balancer for both (A and B are then wherever it sends the next request; each test
 * checks that the two requests it compares were answered by different replicas).
 */
interface Way {
  label: string;
  a: Lane;
  b: Lane;
}

const DEFAULT_STRUCTURED_BOUND = 262_144;
const RUNS_ARGS = { owner: 'octo-org', repo: 'octo-repo' };
const SHORT_LIVED_PATH = '/pipeline/5034460f-c7c4-4c43-9457-de07e2029e7b';

const STORES = [
  { kind: 'Redis', url: sharedRedisUrl },
  // Both processes on one SQLite file, as several servers on one host share it.
  { kind: 'SQLite', url: async () => `sqlite://${sqliteFile()}` },
];

const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;
const decisionOf = (result: CallToolResult): Decision => result._meta?.decision as Decision;
type CircleciRead = { data: unknown; cache: { hit: boolean; ageMs: number; fetchedAt: string } };
const envelope = <T = Record<string, unknown>>(result: CallToolResult): T => {
  if (result.isError || result.structuredContent === undefined) throw new Error(`expected structured content, got ${JSON.stringify(result).slice(0, 400)}`);
  return result.structuredContent as T;
};
const call = async (lane: Lane, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await lane.client()).callTool({ name, arguments: args }) as Promise<CallToolResult>;

for (const store of STORES) {
  describe(`two replicas of the real tools sharing one ${store.kind} store, with one session through a balancer without sticky sessions`, function () {
    this.timeout(180_000);
    let upstreams: VendorUpstreams;
    let deployment: Deployment;
    let storeEnv: Record<string, string>;
    let replicas: Replica[];
    let proxy: RoundRobinProxy;
    /** rene's one SDK session through the balancer, connected once for the whole scenario, restarts included. */
    let session: Client;
    /** What each way saved, to be read back after the restart. */
    const artifacts = new Map<string, { artifactId: string; content: Buffer }>();

    const direct = (replica: () => Replica): Lane => ({ client: () => replica().as('rene'), answered: (n = 1) => Array<string>(n).fill(replica().origin) });
    const balanced: Lane = { client: async () => session, answered: (n = 1) => proxy.routed.slice(-n) };
    const ways = (): Way[] => [
      { label: 'a client on A, one on B', a: direct(() => replicas[0]!), b: direct(() => replicas[1]!) },
      { label: 'one session through the balancer', a: balanced, b: balanced },
    ];
    // A list that stays cacheable (schedules): pipeline lists are status paths, never cached.
    const projectPath = (way: number): string => `/project/gh/acme/${['api', 'web'][way]}/schedule`;

    before(async () => {
      upstreams = await startVendorUpstreams();
      deployment = writeDeployment();
      storeEnv = { MCP_STORE_URL: await store.url(), MCP_STORE_NAMESPACE: uniqueNamespace('replicas') };
      replicas = await startReplicas(2, {
        storeUrl: storeEnv.MCP_STORE_URL!,
        namespace: storeEnv.MCP_STORE_NAMESPACE!,
        // Values are compared byte for byte with the upstream's pages: no fences (random per call) around the
        // runs' titles, which test/plugins/provenance holds.
        env: { ...vendorCredentials(upstreams.urls), ...deployment.env, MCP_FENCE: 'false' },
        plugins: REPLICA_PLUGINS,
        tokens: deployment.tokens,
      });
      proxy = await startRoundRobinProxy(() => replicas.map((r) => r.url));
      session = await connectHttp(proxy.url, deployment.tokens.rene);
    });
    after(async () => {
      await session?.close();
      await proxy?.close();
      await stopReplicas(replicas ?? []);
      await upstreams?.close();
    });

    it('read to the last byte through B an oversized result produced through A, and refuse it to another caller', async () => {
      expect(new Set(replicas.map((r) => r.pid)).size).to.equal(2);
      for (const way of ways()) {
        const produced = await call(way.a, 'github_list_workflow_runs', RUNS_ARGS);
        const producedOn = way.a.answered()[0];
        const value = Buffer.from(JSON.stringify({ data: upstreams.runsPage(upstreams.github.requests.at(-1)!), nextPage: 2 }), 'utf8');
        const { artifactId } = envelope<{ incomplete: { artifactId: string } }>(produced).incomplete;
        expect(produced.structuredContent, way.label).to.deep.equal({
          data: null,
          nextPage: 2,
          incomplete: { reason: 'size', bytes: value.length, limitBytes: DEFAULT_STRUCTURED_BOUND, artifactId },
        });
        expect(artifactId).to.match(/^[0-9a-f]{32}$/);

        const read = await readArtifact(await way.b.client(), artifactId);
        expect(way.b.answered(read.reads)[0], way.label).not.to.equal(producedOn);
        expect(read.reads).to.be.greaterThan(10);
        expect(read.mimeType).to.equal('application/json');
        expect(read.content.equals(value), `${way.label}: the bytes read back differ from the value`).to.equal(true);

        const unknown = await call(way.b, 'artifact_read', { artifactId: 'f'.repeat(32) });
        for (const replica of replicas) {
          const refused = (await (await replica.as('alice')).callTool({ name: 'artifact_read', arguments: { artifactId } })) as CallToolResult;
          expect([refused.isError, textOf(refused)], `alice on ${replica.name}`).to.deep.equal([true, ARTIFACT_NOT_FOUND_TEXT]);
          expect(refused).not.to.have.property('structuredContent');
        }
        expect(textOf(unknown)).to.equal(ARTIFACT_NOT_FOUND_TEXT);
        artifacts.set(way.label, { artifactId, content: value });
      }
    });

    it('serve through B, as a hit, a circleci_get answer cached through A: one upstream request', async () => {
      for (const [i, way] of ways().entries()) {
        const first = await call(way.a, 'circleci_get', { path: projectPath(i) });
        const fetchedOn = way.a.answered()[0];
        const second = await call(way.b, 'circleci_get', { path: projectPath(i) });
        expect(way.b.answered()[0], way.label).not.to.equal(fetchedOn);
        const [miss, hit] = [envelope<CircleciRead>(first), envelope<CircleciRead>(second)];
        expect(miss.cache).to.include({ hit: false, ageMs: 0 });
        expect(hit.cache, way.label).to.include({ hit: true, fetchedAt: miss.cache.fetchedAt });
        expect(hit.data).to.deep.equal(miss.data);
        expect(upstreams.count('circleci', 'GET', `/api/v2${projectPath(i)}`), way.label).to.equal(1);
      }
    });

    it('honour on A, once, an approval granted on B (admin endpoint)', async () => {
      for (const [i, way] of ways().entries()) {
        const path = `/rest/api/3/issue/PLAT-${70 + i}`;
        const held = await call(way.b, 'jira_delete', { path });
        const heldOn = way.b.answered()[0]!;
        expect(held._meta, way.label).to.deep.include({ code: 'approval_required' });
        const { approvalId } = decisionOf(held);
        const grant = await decideOnAdminEndpoint(heldOn, approvalId!, 'grant');
        expect(grant.status, JSON.stringify(grant.body)).to.equal(200);

        const granted = await call(way.a, 'jira_delete', { path });
        expect(way.a.answered()[0], way.label).not.to.equal(heldOn);
        expect(granted.isError, textOf(granted)).to.equal(undefined);
        const replay = await call(way.b, 'jira_delete', { path });
        expect(replay._meta).to.deep.include({ code: 'approval_required' });
        expect(decisionOf(replay).approvalId).not.to.equal(approvalId);
        expect(upstreams.count('jira', 'DELETE', path), way.label).to.equal(1);
      }
    });

    it('lose nothing within its TTL when both restart (artifacts, cache entries, pending approvals), and forget what expired', async () => {
      const pending = await Promise.all(
        ways().map(async (way, i) => decisionOf(await call(way.b, 'jira_delete', { path: `/rest/api/3/issue/PLAT-${80 + i}` })).approvalId!),
      );
      const [oneOnEach] = ways();
      expect(envelope<CircleciRead>(await call(oneOnEach!.a, 'circleci_get', { path: SHORT_LIVED_PATH })).cache.hit).to.equal(false);
      const before = replicas.map((r) => r.pid);
      await Promise.all(replicas.map((r) => r.restart()));
      replicas.forEach((r, i) => expect(r.pid, `replica ${r.name} was not restarted`).not.to.equal(before[i]));
      await sleep(SHORT_LIVED_SECONDS * 1000 + 200); // past the short-lived entry's max-age, however fast the restart was

      for (const [i, way] of ways().entries()) {
        const kept = artifacts.get(way.label)!;
        expect((await readArtifact(await way.a.client(), kept.artifactId)).content.equals(kept.content), way.label).to.equal(true);
        const refused = (await (
          await replicas[1]!.as('alice')
        ).callTool({ name: 'artifact_read', arguments: { artifactId: kept.artifactId } })) as CallToolResult;
        expect(textOf(refused)).to.equal(ARTIFACT_NOT_FOUND_TEXT);

        expect(envelope<CircleciRead>(await call(way.b, 'circleci_get', { path: projectPath(i) })).cache.hit, way.label).to.equal(true);
        expect(upstreams.count('circleci', 'GET', `/api/v2${projectPath(i)}`)).to.equal(1);

        // The approver uses the CLI through either replica, as herself: the restarted ones know the approvals held before.
        const grant = await runCli(['approvals', 'grant', pending[i]!, '--server', replicas[i % 2]!.origin, '--yes'], {
          cwd: deployment.dir,
          env: { MCP_APPROVER_TOKEN: APPROVER_TOKENS.olga },
        });
        expect(grant.code, grant.stderr).to.equal(0);
        const path = `/rest/api/3/issue/PLAT-${80 + i}`;
        expect((await call(way.a, 'jira_delete', { path })).isError, way.label).to.equal(undefined);
        expect(decisionOf(await call(way.b, 'jira_delete', { path })).approvalId).not.to.equal(pending[i]);
        expect(upstreams.count('jira', 'DELETE', path)).to.equal(1);
      }
      expect(envelope<CircleciRead>(await call(oneOnEach!.b, 'circleci_get', { path: SHORT_LIVED_PATH })).cache.hit).to.equal(false);
      expect(upstreams.count('circleci', 'GET', `/api/v2${SHORT_LIVED_PATH}`)).to.equal(2);
      // The one session went on across the restart, answered by both replicas before it and both after.
      expect(new Set(proxy.routed).size).to.equal(4);
    });
  });
}
