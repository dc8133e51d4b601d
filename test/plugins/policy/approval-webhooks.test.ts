import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { WebhookQueue, type Delivery } from '../../../plugins/policy/approvals/notify/webhook-queue.js';
import type { AuditRecord } from '../../../plugins/policy/audit/audit-record.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { rejection } from '../../support/async.js';
import { APPROVERS, manualClock, PEOPLE, startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { REPO_ROOT } from '../../support/paths.js';
import { docsVerifier, WebhookReceiver } from '../../support/webhook-receiver.js';

const SECRET = 'whsec-4f1d8a2c9b7e6035';
const PIPELINE = { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } };
const TTL_SECONDS = 600;

function approvalIdOf(result: CallToolResult): string {
  const decision = result._meta?.decision as Decision | undefined;
  if (result._meta?.code !== 'approval_required' || decision?.approvalId === undefined) throw new Error(`not held: ${JSON.stringify(result)}`);
  return decision.approvalId;
}

/** The keys of an object and of the objects in it (not of arrays or of `arguments`, whose keys are the call's). */
function keysOf(value: Record<string, unknown>, at = ''): string[] {
  return Object.entries(value)
    .flatMap(([k, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) && k !== 'arguments'
        ? [`${at}${k}`, ...keysOf(v as Record<string, unknown>, `${at}${k}.`)]
        : [`${at}${k}`],
    )
    .sort();
}

/** A loopback port nothing listens on: a receiver that is down. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('approval webhooks (in-process kernel, loopback receivers)', function () {
  this.timeout(30_000);
  const clock = manualClock();
  const audit = tempFile('audit.jsonl', '');
  let ent: EnterpriseKernel;
  let approvals: ApprovalStore;
  let receiver: WebhookReceiver;
  let down: string;

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET);
    down = `http://127.0.0.1:${await closedPort()}/hooks/down-receiver-path`;
    ent = await startEnterpriseKernel({
      clock,
      env: {
        MCP_APPROVAL_WEBHOOK_URL: `${receiver.url}, ${down}`,
        MCP_APPROVAL_WEBHOOK_SECRET: SECRET,
        // Both receivers are on loopback, which the egress guard refuses unless named.
        MCP_EGRESS_ALLOW: `${receiver.egressAllow}, ${new URL(down).host}`,
        MCP_APPROVAL_TTL_SECONDS: String(TTL_SECONDS),
        MCP_AUDIT_LOG: audit,
      },
    });
    approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
    ent.circleci.on('POST', '/api/v2/project/gh/acme/app/pipeline', { status: 201, body: { id: 'p-1', number: 43, state: 'pending' } });
  });
  after(async () => {
    await ent?.close();
    await receiver?.close();
  });

  const auditRecords = (): AuditRecord[] =>
    readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord);

  it('posts a signed event when a call is held, without making the call wait for the receiver', async () => {
    receiver.answerNext(1, 200, { delayMs: 1500 });
    const id = approvalIdOf(await ent.kernel.call('circleci_post', PIPELINE, PEOPLE.rene));
    // Had the call waited for the delivery, its attempt would be in the audit log by now.
    expect(auditRecords().filter((r) => r.notification?.receiver === new URL(receiver.url).origin)).to.deep.equal([]);
    await receiver.waitFor('the held event arrives', (r) => r.events.some((e) => e.id === `${id}.held`));
    const post = receiver.posts.find((p) => p.body.includes(`"${id}.held"`))!;
    expect(post.path).to.equal('/services/T0001/B0001/receiver-path-canary');
    expect(post.headers['content-type']).to.equal('application/json');
    expect(post.headers['mcp-devtools-event']).to.equal('approval.held');
    expect(post.headers['mcp-devtools-signature']).to.match(/^t=\d{10},v1=[0-9a-f]{64}$/);
    const event = receiver.events.find((e) => e.id === `${id}.held`)!;
    expect(event).to.deep.include({ type: 'approval.held', time: new Date(clock.now()).toISOString() });
    expect(event.approval).to.deep.equal({
      id,
      tool: 'circleci_post',
      request: { method: 'POST', path: '/api/v2/project/gh/acme/app/pipeline' },
      principal: { subject: 'rene', groups: ['developers', 'release-engineers'], via: 'tokens' },
      rule: { id: 'deletes-need-approval', reason: 'Deletes and pipeline triggers are reviewed by an approver first.' },
      policyVersion: (await approvals.get(id))!.policyVersion,
      identity: { vendor: 'circleci', credential: 'circleci-deployer', host: new URL(ent.circleci.url).host, environment: 'production' },
      acts: 'acts as circleci-deployer (production)',
      arguments: { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } },
      redacted: [],
      withheld: [],
      createdAt: new Date(clock.now()).toISOString(),
      expiresAt: new Date(clock.now() + TTL_SECONDS * 1000).toISOString(),
      url: null,
    });
    expect(event.text).to.equal(
      `:hourglass: *rene*'s call waits for approval until ${event.approval.expiresAt.slice(11, 16)} UTC: \`circleci_post\` POST /api/v2/project/gh/acme/app/pipeline as circleci-deployer (production) (rule deletes-need-approval: Deletes and pipeline triggers are reviewed by an approver first.) (${id})`,
    );
  });

  it('tells of a grant and of a rejection with who decided and why, escaped for Slack', async () => {
    const granted = approvalIdOf(await ent.kernel.call('circleci_post', { ...PIPELINE, body: { branch: 'release/4.2' } }, PEOPLE.rene));
    await approvals.grant(granted, { subject: 'olga', groups: ['approvers'], via: 'tokens' }, 'Release 4.2 is cleared by QA.');
    const rejected = approvalIdOf(await ent.kernel.call('circleci_post', { ...PIPELINE, body: { branch: 'experiment' } }, PEOPLE.rene));
    await approvals.reject(rejected, APPROVERS.olga, 'Not on a Friday <!channel> <https://evil.example|here>.');
    await receiver.waitFor(
      'both decisions arrive',
      (r) => r.events.some((e) => e.id === `${rejected}.rejected`) && r.events.some((e) => e.id === `${granted}.granted`),
    );
    const grant = receiver.events.find((e) => e.id === `${granted}.granted`)!;
    expect(grant.type).to.equal('approval.granted');
    expect(grant.decision).to.deep.equal({ status: 'granted', by: 'olga', at: new Date(clock.now()).toISOString(), reason: 'Release 4.2 is cleared by QA.' });
    expect(grant.approval.arguments).to.deep.equal({ path: PIPELINE.path, body: { branch: 'release/4.2' } });
    expect(grant.text).to.match(
      /^:white_check_mark: \*olga\* granted rene's call `circleci_post` POST \/api\/v2\/project\/gh\/acme\/app\/pipeline as circleci-deployer \(production\): Release 4\.2 is cleared by QA\. \(apr-/,
    );
    const reject = receiver.events.find((e) => e.id === `${rejected}.rejected`)!;
    expect(reject.decision).to.include({ status: 'rejected', by: 'olga' });
    expect(reject.text).to.include(': Not on a Friday &lt;!channel&gt; &lt;https://evil.example|here&gt;.');
    expect(reject.text).not.to.include('<!channel>');
  });

  it('tells of an approval that expired undecided, once, however many sweeps find it', async () => {
    const id = approvalIdOf(await ent.kernel.call('circleci_post', { ...PIPELINE, body: { branch: 'stale' } }, PEOPLE.rene));
    const decided = approvalIdOf(await ent.kernel.call('circleci_post', { ...PIPELINE, body: { branch: 'decided' } }, PEOPLE.rene));
    await approvals.grant(decided, APPROVERS.olga);
    expect(await approvals.sweepExpired()).to.deep.equal([]);
    clock.advance(TTL_SECONDS * 1000 + 1);
    // The plugin's own sweep runs every few seconds too: of all of them, one takes the expiry.
    const swept = (await Promise.all([approvals.sweepExpired(), approvals.sweepExpired(), approvals.sweepExpired()])).flat();
    expect(swept.filter((r) => r.id === id).length).to.be.at.most(1);
    expect(swept.map((r) => r.id)).not.to.include(decided);
    await receiver.waitFor('the expiry arrives', (r) => r.events.some((e) => e.id === `${id}.expired`));
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.posts.filter((p) => p.headers['mcp-devtools-event-id'] === `${id}.expired`)).to.have.length(1);
    const event = receiver.events.find((e) => e.id === `${id}.expired`)!;
    expect(event.text).to.match(
      /^:zzz: Nobody decided rene's call `circleci_post` POST \/api\/v2\/project\/gh\/acme\/app\/pipeline as circleci-deployer \(production\); it expired \(apr-/,
    );
    expect(receiver.events.filter((e) => e.approval.id === decided).map((e) => e.type)).to.deep.equal(['approval.held', 'approval.granted']);
  });

  it('retries a failing receiver after a backoff, logs each failure at warn by origin only, and audits every attempt', async () => {
    receiver.answerNext(1, 503);
    const id = approvalIdOf(await ent.kernel.call('circleci_post', { ...PIPELINE, body: { branch: 'retry' } }, PEOPLE.rene));
    await receiver.waitFor('the retry is accepted', (r) => r.events.some((e) => e.id === `${id}.held`));
    const attempts = receiver.posts.filter((p) => p.body.includes(`"${id}.held"`));
    expect(attempts.map((p) => p.status)).to.deep.equal([503, 200]);
    // Each attempt is signed afresh; the event id stays.
    expect(attempts.map((p) => p.headers['mcp-devtools-event-id'])).to.deep.equal([`${id}.held`, `${id}.held`]);
    // Down receivers are given up on only after their retries: wait for the first two attempts' records.
    const records = async (): Promise<AuditRecord[]> => auditRecords().filter((r) => r.notification?.eventId === `${id}.held`);
    const deadline = Date.now() + 10_000;
    while ((await records()).length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const notes = (await records()).map((r) => r.notification!);
    const local = new URL(receiver.url).origin;
    expect(notes.filter((n) => n.receiver === local).map((n) => [n.attempt, n.delivered, n.status, n.retrying])).to.deep.equal([
      [1, false, 503, true],
      [2, true, 200, false],
    ]);
    const downNotes = notes.filter((n) => n.receiver === new URL(down).origin);
    expect(downNotes.map((n) => [n.attempt, n.delivered, n.retrying])).to.deep.equal([
      [1, false, true],
      [2, false, true],
    ]);
    expect(downNotes[0]!.error).to.match(/ECONNREFUSED/);
    const warnings = ent.kernel.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'approval event not delivered; retrying');
    expect(warnings.length).to.be.at.least(2);
    expect(warnings.every((w) => w.level === 40)).to.equal(true);
    const logged = ent.kernel.logs.join('\n');
    expect(logged).not.to.include('receiver-path-canary');
    expect(logged).not.to.include('down-receiver-path');
    // The call itself was held as usual: a receiver down is nobody's problem but the receiver's.
    expect((await approvals.get(id))!.status).to.equal('pending');
  });

  it("runs the docs' receiver snippet against a delivered event: a replay, a stale timestamp and a changed body are refused", async () => {
    const post = receiver.posts.find((p) => p.status === 200 && p.headers['mcp-devtools-event'] === 'approval.held')!;
    const verify = await docsVerifier();
    expect(verify(post.body, post.headers, SECRET)!.type).to.equal('approval.held');
    expect(verify(post.body, post.headers, SECRET)).to.equal(null);
    const fresh = await docsVerifier();
    expect(() => fresh(post.body.replace('"rene"', '"mallory"'), post.headers, SECRET)).to.throw('bad signature');
    expect(() => fresh(post.body, post.headers, 'another-secret')).to.throw('bad signature');
    expect(() => fresh(post.body, post.headers, SECRET, Date.now() + 6 * 60_000)).to.throw('timestamp too old or too new');
    expect(() => fresh(post.body, { ...post.headers, 'mcp-devtools-signature': undefined }, SECRET)).to.throw('unsigned');
    // The event docs/console.md shows has the keys a delivered one has, at every level.
    const doc = readFileSync(join(REPO_ROOT, 'docs/console.md'), 'utf8');
    const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('## Notifications')))![1]!) as Record<string, unknown>;
    expect(keysOf(shown)).to.deep.equal(keysOf(JSON.parse(post.body) as Record<string, unknown>));
    // Every post the receiver accepted was one the snippet verified.
    expect(receiver.posts.filter((p) => p.status === 200).every((p) => p.verified !== null && !('refused' in p.verified))).to.equal(true);
  });

  it('refuses to start with a receiver that is not an http(s) URL, without echoing the setting', async () => {
    const error = await rejection(startEnterpriseKernel({ env: { MCP_APPROVAL_WEBHOOK_URL: 'https://ok.example/a, ftp://hooks.example/secret-path-42' } }));
    expect(error.message).to.include(
      'MCP_APPROVAL_WEBHOOK_URL: receiver 2 of 2 is not an http(s) URL without user information (the setting is a secret, so it is not shown).',
    );
    expect(error.message).not.to.include('secret-path-42');
  });
});

describe('the webhook delivery queue (unit)', () => {
  const delivery = (n: number): Delivery => ({
    url: new URL('https://hooks.example/x'),
    eventId: `apr-${n}.held`,
    event: 'approval.held',
    approvalId: `apr-${n}`,
    tool: 'jira_delete',
    body: '{}',
    attempt: 1,
  });

  it('holds at most maxQueued deliveries: one past the bound is dropped and reported, and enqueue never waits', async () => {
    const reports: string[] = [];
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const queue = new WebhookQueue({
      attempt: async () => {
        await blocked;
        return { delivered: true, status: 200 };
      },
      report: (d, result, retrying) =>
        reports.push(`${d.eventId} ${'dropped' in result ? result.dropped : result.delivered ? 'delivered' : 'failed'} ${retrying}`),
      backoffMs: [],
      maxQueued: 2,
      concurrency: 1,
    });
    expect([queue.enqueue(delivery(1)), queue.enqueue(delivery(2)), queue.enqueue(delivery(3))]).to.deep.equal([true, true, false]);
    expect(reports).to.deep.equal(['apr-3.held the queue holds 2 deliveries false']);
    release();
    await queue.drain(1000);
    expect(reports.slice(1)).to.deep.equal(['apr-1.held delivered false', 'apr-2.held delivered false']);
    expect(queue.size).to.equal(0);
  });

  it('retries after each backoff step (longer when the receiver asks with Retry-After), then gives up', async () => {
    const times: number[] = [];
    const outcomes: Array<[number, boolean]> = [];
    const queue = new WebhookQueue({
      attempt: async () => {
        times.push(performance.now());
        return { delivered: false, status: 503, error: 'the receiver answered 503', retry: true, retryAfterMs: times.length === 1 ? 300 : undefined };
      },
      report: (d, _result, retrying) => outcomes.push([d.attempt, retrying]),
      backoffMs: [50, 50],
      maxQueued: 10,
      concurrency: 1,
    });
    queue.enqueue(delivery(1));
    await queue.drain(5000);
    expect(outcomes).to.deep.equal([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(times[1]! - times[0]!).to.be.at.least(290);
    expect(times[2]! - times[1]!).to.be.at.least(45);
  });
});
