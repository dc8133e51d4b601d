import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { allowedUnder, auditRecordsOf, callOnNewConnection, decisionIn, race } from '../support/grant-races.js';
import { sharedRedisUrl, uniqueNamespace } from '../support/redis.js';
import { decideOnAdminEndpoint, REPLICA_PLUGINS, vendorCredentials, writeDeployment, type Deployment } from '../support/replica-deployment.js';
import { startVendorUpstreams, type VendorUpstreams } from '../support/replica-upstreams.js';
import { startReplicas, stopReplicas, type Replica } from '../support/replicas.js';
import { startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';
import { sqliteFile } from '../support/store-backends.js';

const RETRIES = 32;

/** Where a retry goes: the URL of a worker pool or of one replica. */
type Target = { url: string; origin: string };

/**
 * The review's inputs across processes: one grant raced by 32 identical retries, spread over the workers of
 * one server (`--workers 2`, SQLite) or over two replicas (one Redis); two approvers deciding one approval at
 * once through different processes. Exactly one retry runs, and exactly one approver is told it decided.
 */
describe('single-use grants across processes (dist/cli.js)', function () {
  this.timeout(180_000);
  let upstreams: VendorUpstreams;
  let deployment: Deployment;

  before(async () => {
    upstreams = await startVendorUpstreams();
    deployment = writeDeployment();
  });
  after(() => upstreams?.close());

  const env = (store: Record<string, string>, auditLog: string): Record<string, string> => ({
    ...vendorCredentials(upstreams.urls),
    ...deployment.env,
    ...store,
    MCP_AUDIT_LOG: auditLog,
    LOG_LEVEL: 'warn',
  });
  const hold = async (target: Target, path: string): Promise<string> => {
    const held = await callOnNewConnection(target.url, 'jira_delete', { path }, deployment.tokens.rene);
    expect(held._meta, JSON.stringify(held).slice(0, 300)).to.deep.include({ code: 'approval_required' });
    return decisionIn(held)!.approvalId!;
  };

  /** Holds a delete, grants it once, then sends 32 identical retries at once, spread over `targets`. */
  async function raceOneGrant(targets: Target[], path: string, auditLogs: string[]): Promise<void> {
    const approvalId = await hold(targets[0]!, path);
    const grant = await decideOnAdminEndpoint(targets.at(-1)!.origin, approvalId, 'grant');
    expect(grant.status, JSON.stringify(grant.body)).to.equal(200);
    const results: CallToolResult[] = await race(RETRIES, (i) =>
      callOnNewConnection(targets[i % targets.length]!.url, 'jira_delete', { path }, deployment.tokens.rene),
    );
    expect(upstreams.count('jira', 'DELETE', path), 'DELETE requests the upstream received').to.equal(1);
    expect(
      results.filter((r) => r.isError !== true),
      'retries that ran',
    ).to.have.length(1);
    const records = auditLogs.flatMap(auditRecordsOf);
    expect(allowedUnder(records, approvalId), 'audit records allowed under the approval').to.have.length(1);
    expect(results.filter((r) => r.isError === true).map((r) => r._meta?.code)).to.deep.equal(Array(RETRIES - 1).fill('approval_required'));
  }

  /** Eight approvals, each decided at once by olga through the first target and paul through the second. */
  async function raceApprovers(targets: [Target, Target], label: string): Promise<void> {
    const rounds: Array<{ approvalId: string; answers: Array<{ status: number; body: unknown }> }> = [];
    for (let round = 0; round < 8; round++) {
      const approvalId = await hold(targets[0], `/rest/api/3/issue/PLAT-${label}${round}`);
      const answers = await Promise.all([
        decideOnAdminEndpoint(targets[0].origin, approvalId, 'grant', 'olga'),
        decideOnAdminEndpoint(targets[1].origin, approvalId, round % 2 === 0 ? 'reject' : 'grant', 'paul'),
      ]);
      rounds.push({ approvalId, answers });
    }
    const winners = rounds.map((r) => r.answers.filter((a) => a.status === 200).length);
    expect(winners, 'approvers told they decided, per round').to.deep.equal(Array(8).fill(1));
    for (const { approvalId, answers } of rounds) {
      const winner = (answers.find((a) => a.status === 200)!.body as { approval: { status: string; decidedBy: string } }).approval;
      expect(answers.find((a) => a.status !== 200)).to.deep.equal({
        status: 409,
        body: { error: `Approval ${approvalId} was already decided: ${winner.status} by ${winner.decidedBy}.` },
      });
    }
  }

  describe('--workers 2 on one SQLite store', () => {
    let server: HttpServerProcess;
    let auditLog: string;
    let target: Target;

    before(async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-grant-workers-'));
      writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: REPLICA_PLUGINS }));
      auditLog = join(cwd, 'audit.jsonl');
      server = await startHttpServer({ cwd, args: ['--workers', '2'], env: env({ MCP_STORE_URL: `sqlite://${sqliteFile()}` }, auditLog) });
      target = { url: server.url, origin: new URL(server.url).origin };
    });
    after(async () => {
      await server?.stop('SIGTERM');
    });

    it('runs a call granted once exactly once when 32 identical retries race for the grant over both workers', async () => {
      await raceOneGrant([target], '/rest/api/3/issue/PLAT-3202', [auditLog]);
    });

    it('lets one of two approvers deciding one approval at once through different connections decide it', async () => {
      await raceApprovers([target, target], '34');
    });
  });

  describe('two replicas on one Redis', () => {
    let replicas: Replica[];
    let targets: [Target, Target];

    before(async () => {
      replicas = await startReplicas(2, {
        storeUrl: await sharedRedisUrl(),
        namespace: uniqueNamespace('grant-races'),
        // Relative: each replica writes the log in its own working directory.
        env: env({}, 'audit.jsonl'),
        plugins: REPLICA_PLUGINS,
        tokens: deployment.tokens,
      });
      targets = [replicas[0]!, replicas[1]!].map((r) => ({ url: r.url, origin: r.origin })) as [Target, Target];
    });
    after(() => stopReplicas(replicas ?? []));

    it('runs a call granted once exactly once when 32 identical retries race for the grant over both replicas', async () => {
      await raceOneGrant(
        targets,
        '/rest/api/3/issue/PLAT-3203',
        replicas.map((r) => join(r.cwd, 'audit.jsonl')),
      );
    });

    it('lets one of two approvers on two replicas decide an approval; the other is told it was already decided', async () => {
      await raceApprovers(targets, '35');
    });
  });
});
