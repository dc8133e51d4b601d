import { join } from 'node:path';
import { expect } from 'chai';
import { sleep } from '../support/async.js';
import { allowedUnder, auditRecordsOf, callOnNewConnection, decisionIn } from '../support/grant-races.js';
import { startRedisServer, uniqueNamespace, type RedisServer } from '../support/redis.js';
import { ADMIN_TOKEN, decideOnAdminEndpoint, REPLICA_PLUGINS, vendorCredentials, writeDeployment, type Deployment } from '../support/replica-deployment.js';
import { startVendorUpstreams, type VendorUpstreams } from '../support/replica-upstreams.js';
import { startReplicas, stopReplicas, type Replica } from '../support/replicas.js';

const CLIENTS = 16;
const OUTAGE_MS = 2500;
const PAUSE_MS = 150;

/** One agent retrying its held delete until it runs, and what it was answered each time. */
interface Agent {
  path: string;
  done: boolean;
  answers: Array<{ at: number; code: string; text: string; approvalId?: string }>;
}

/**
 * The review's fault input: Redis killed (everything it held is lost) and started again in the middle of 16
 * agents' held deletes and an approver's grants, the server left running. While Redis is down every held call
 * is refused with store_unavailable and nothing reaches the upstream; afterwards work resumes by itself, and
 * no grant ever runs a call twice.
 */
describe('approvals while Redis restarts under 16 agents and an approver (dist/cli.js)', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let upstreams: VendorUpstreams;
  let deployment: Deployment;
  let server: Replica;
  let stopped = false;
  const deletes = (): number => upstreams.jira.requests.filter((r) => r.method === 'DELETE').length;

  before(async () => {
    redis = await startRedisServer();
    upstreams = await startVendorUpstreams();
    deployment = writeDeployment();
    [server] = await startReplicas(1, {
      storeUrl: redis.url,
      namespace: uniqueNamespace('outage'),
      env: {
        ...vendorCredentials(upstreams.urls),
        ...deployment.env,
        MCP_AUDIT_LOG: 'audit.jsonl',
        MCP_STORE_TIMEOUT_MS: '1000',
        MCP_CONSOLE: 'true',
        LOG_LEVEL: 'fatal',
      },
      plugins: REPLICA_PLUGINS,
      tokens: deployment.tokens,
    });
  });
  after(async () => {
    stopped = true;
    await stopReplicas(server ? [server] : []);
    await upstreams?.close();
    await redis?.stop();
  });

  const attempt = async (agent: Agent): Promise<void> => {
    const result = await callOnNewConnection(server.url, 'jira_delete', { path: agent.path }, deployment.tokens.rene);
    const text = (result.content[0] as { text: string }).text;
    const code = result.isError === true ? String(result._meta?.code) : 'ran';
    agent.answers.push({ at: Date.now(), code, text, approvalId: decisionIn(result)?.approvalId });
    if (code === 'ran') agent.done = true;
  };
  const retryUntilRun = async (agent: Agent): Promise<void> => {
    while (!agent.done && !stopped) {
      await attempt(agent);
      await sleep(PAUSE_MS);
    }
  };
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const approverAnswers: Array<{ at: number; status: number; code?: string }> = [];
  /** Grants every pending approval of the agents' paths, over and over. */
  const approve = async (paths: Set<string>): Promise<void> => {
    while (!stopped) {
      const listed = await fetch(`${server.origin}/admin/approvals`, { headers: admin });
      const body = (await listed.json()) as { approvals?: Array<{ id: string; status: string; request: { path: string } }>; code?: string };
      approverAnswers.push({ at: Date.now(), status: listed.status, code: body.code });
      for (const approval of body.approvals ?? []) {
        if (approval.status !== 'pending' || !paths.has(approval.request.path)) continue;
        const grant = await decideOnAdminEndpoint(server.origin, approval.id, 'grant');
        approverAnswers.push({ at: Date.now(), status: grant.status, code: (grant.body as { code?: string }).code });
      }
      await sleep(PAUSE_MS);
    }
  };

  /** Alice's console session, signed in with her token (the cookie's value). */
  const consoleSession = async (): Promise<string> => {
    const form = await fetch(`${server.origin}/console/signin`);
    const csrf = /mcp_console_signin=([^;]+)/.exec(form.headers.getSetCookie().join('\n'))![1]!;
    const signedIn = await fetch(`${server.origin}/console/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `mcp_console_signin=${csrf}` },
      body: new URLSearchParams({ csrf, token: deployment.tokens.alice }).toString(),
    });
    return /mcp_console=([^;]+)/.exec(signedIn.headers.getSetCookie().join('\n'))![1]!;
  };

  it('refuses held calls with store_unavailable while Redis is down, resumes without a restart, and runs no grant twice', async () => {
    const agents: Agent[] = Array.from({ length: CLIENTS }, (_, i) => ({ path: `/rest/api/3/issue/OPS-${500 + i}`, done: false, answers: [] }));
    const session = await consoleSession();
    // Before the outage: all 16 held; 8 granted; 4 of those retried and ran.
    await Promise.all(agents.map(attempt));
    expect(agents.map((a) => a.answers[0]!.code)).to.deep.equal(Array(CLIENTS).fill('approval_required'));
    for (const agent of agents.slice(0, 8)) expect((await decideOnAdminEndpoint(server.origin, agent.answers[0]!.approvalId!, 'grant')).status).to.equal(200);
    await Promise.all(agents.slice(0, 4).map(attempt));
    expect(agents.filter((a) => a.done)).to.have.length(4);

    // The other 12 keep retrying and the approver keeps granting; Redis dies in the middle of it.
    const work = [...agents.filter((a) => !a.done).map(retryUntilRun), approve(new Set(agents.map((a) => a.path)))];
    await sleep(PAUSE_MS);
    await redis.kill();
    await sleep(300); // calls in flight when it died have ended by now
    const [downFrom, ranBefore] = [Date.now(), deletes()];
    await sleep(OUTAGE_MS);
    const downUntil = Date.now();
    expect(deletes(), 'DELETE requests sent while Redis was down').to.equal(ranBefore);
    const waiting = agents.filter((a) => !a.done);
    expect(waiting.length, 'agents still waiting when Redis was down').to.be.greaterThan(0);
    for (const agent of waiting) {
      const during = agent.answers.filter((a) => a.at >= downFrom && a.at <= downUntil);
      expect(during.length, agent.path).to.be.greaterThan(0);
      expect(new Set(during.map((a) => a.code)), agent.path).to.deep.equal(new Set(['store_unavailable']));
      expect(during[0]!.text).to.include('the approvals store (MCP_STORE_URL) cannot be reached, so the call was refused and nothing was sent');
    }
    const page = await fetch(`${server.origin}/console`, { headers: { cookie: `mcp_console=${session}` } });
    expect(page.status).to.equal(503);
    expect(await page.text()).to.include('The shared store (MCP_STORE_URL) cannot be reached right now, so nothing was done. Try again shortly.');
    const approverDuring = approverAnswers.filter((a) => a.at >= downFrom && a.at <= downUntil);
    expect(approverDuring.length).to.be.greaterThan(0);
    for (const answer of approverDuring) expect(answer).to.deep.include({ status: 503, code: 'store_unavailable' });

    // Redis comes back, empty: the same server process reconnects; held calls are held again, granted, and run.
    const pid = server.pid;
    await redis.restart();
    const deadline = Date.now() + 90_000;
    while (agents.some((a) => !a.done) && Date.now() < deadline) await sleep(200);
    stopped = true;
    await Promise.all(work);
    expect(
      agents.filter((a) => !a.done).map((a) => a.path),
      'agents whose call never ran',
    ).to.deep.equal([]);
    expect(server.pid).to.equal(pid);
    expect(server.server.process.exitCode).to.equal(null);

    // Each delete reached the upstream exactly once, and no approval let more than one call run.
    for (const agent of agents) expect(upstreams.count('jira', 'DELETE', agent.path), agent.path).to.equal(1);
    const records = auditRecordsOf(join(server.cwd, 'audit.jsonl'));
    const approvalIds = new Set(agents.flatMap((a) => a.answers.map((x) => x.approvalId)).filter((id): id is string => id !== undefined));
    for (const id of approvalIds) expect(allowedUnder(records, id).length, `calls allowed under ${id}`).to.be.at.most(1);
    const ran = records.filter((r) => r.decision?.effect === 'allow' && r.tool === 'jira_delete' && r.outcome.status === 'ok');
    expect(ran).to.have.length(CLIENTS);
  });
});
