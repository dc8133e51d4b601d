// How an approval event is tried again when its receiver is busy, over real HTTP (a loopback receiver; each post
// goes through core's pooled client under the receiver's egress guard): a 429 is retried like a 5xx, Retry-After
// is read in seconds, and one longer than five minutes is not waited for. The retries' timer is the test's own,
// which runs each retry at once and keeps how long the queue asked to wait: no test sleeps for a Retry-After.
import { expect } from 'chai';
import { parseEgressAllow } from '../../../core/http/egress-guard.js';
import type { ApprovalRecord } from '../../../plugins/policy/approvals/approval-record.js';
import type { AuditRecord } from '../../../plugins/policy/audit/audit-record.js';
import { ApprovalNotifier } from '../../../plugins/policy/approvals/notify/approval-notifier.js';
import type { ScheduleRetry } from '../../../plugins/policy/approvals/notify/webhook-queue.js';
import { capturedLogger } from '../../support/auth-fixture.js';
import { manualClock } from '../../support/enterprise-fixture.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const SECRET = 'whsec-retries-5c2e91d04b';
/** The notifier's own backoff before the first retry, in these tests. */
const BACKOFF_MS = 10;

/** A held call as the approvals store keeps it. */
function heldRecord(id: string): ApprovalRecord {
  const createdAt = new Date(Date.UTC(2026, 10, 30, 9, 0, 0));
  return {
    id,
    status: 'pending',
    subject: 'rene',
    groups: ['developers'],
    via: 'tokens',
    tool: 'circleci_trigger_pipeline',
    request: { method: 'POST', path: '/api/v2/project/gh/acme/app/pipeline' },
    arguments: JSON.stringify({ projectSlug: 'gh/acme/app', branch: 'main' }),
    redacted: [],
    identity: null,
    argsHash: 'a1'.repeat(32),
    binding: 'b2'.repeat(32),
    policyVersion: 'c3'.repeat(8),
    ruleId: 'pipelines-need-approval',
    reason: 'Pipeline triggers are reviewed first.',
    createdAt: createdAt.toISOString(),
    expiresAt: new Date(createdAt.getTime() + 600_000).toISOString(),
    ttlMs: 600_000,
  };
}

describe('approval webhook retries over real HTTP (loopback receiver)', function () {
  this.timeout(20_000);
  let receiver: WebhookReceiver;
  let notifier: ApprovalNotifier | undefined;
  /** How long each retry was to wait, in the order they were scheduled. */
  let waits: number[];
  /** What the notifier wrote to the audit log. */
  let audited: Array<Omit<AuditRecord, 'seq' | 'prev' | 'hash'>>;

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET);
  });
  afterEach(() => {
    notifier?.close();
    notifier = undefined;
  });
  after(async () => {
    await receiver?.close();
  });

  /** Notifies the receiver that `id` is held; resolves with the statuses it answered once it accepted the event. */
  async function deliver(id: string): Promise<number[]> {
    notifier?.close();
    waits = [];
    audited = [];
    const runAtOnce: ScheduleRetry = (retry, ms) => {
      waits.push(ms);
      const timer = setImmediate(retry);
      return { cancel: () => clearImmediate(timer) };
    };
    const egressAllow = parseEgressAllow(receiver.egressAllow);
    notifier = new ApprovalNotifier(ApprovalNotifier.receivers(receiver.url, egressAllow), SECRET, {
      clock: manualClock(),
      logger: capturedLogger().logger,
      audit: () => ({ append: async (entry) => void audited.push(entry) }),
      egressAllow,
      backoffMs: [BACKOFF_MS, BACKOFF_MS],
      scheduleRetry: runAtOnce,
    });
    notifier.notify('approval.held', heldRecord(id));
    await receiver.waitFor(`${id} is accepted`, (r) => r.events.some((e) => e.id === `${id}.held`));
    return receiver.posts.filter((p) => p.headers['mcp-devtools-event-id'] === `${id}.held`).map((p) => p.status);
  }

  it('tries again a receiver that answered 429 Too Many Requests, after the backoff step, and delivers the event', async () => {
    receiver.answerNext(1, 429);
    expect(await deliver('apr-429')).to.deep.equal([429, 200]);
    expect(waits).to.deep.equal([BACKOFF_MS]);
    // Each attempt is audited under the server's own name, never as a person's act.
    expect(audited.map((r) => [r.principal, r.notification?.attempt, r.notification?.status, r.notification?.retrying])).to.deep.equal([
      [{ subject: 'mcp-devtools', groups: [], via: 'webhook' }, 1, 429, true],
      [{ subject: 'mcp-devtools', groups: [], via: 'webhook' }, 2, 200, false],
    ]);
  });

  it('waits the seconds a Retry-After header asks for: Retry-After: 2 is 2000 ms, not 2', async () => {
    receiver.answerNext(1, 429, { retryAfter: '2' });
    expect(await deliver('apr-after')).to.deep.equal([429, 200]);
    expect(waits).to.deep.equal([2_000]);
  });

  it('does not wait for a Retry-After past five minutes: 10 minutes falls back to the backoff step', async () => {
    receiver.answerNext(1, 503, { retryAfter: '600' });
    expect(await deliver('apr-cap')).to.deep.equal([503, 200]);
    expect(waits).to.deep.equal([BACKOFF_MS]);
    receiver.answerNext(1, 503, { retryAfter: '300' });
    expect(await deliver('apr-five')).to.deep.equal([503, 200]);
    expect(waits, 'five minutes exactly is still waited for').to.deep.equal([300_000]);
  });

  it('falls back to the backoff step on a Retry-After that is no number of seconds', async () => {
    receiver.answerNext(1, 503, { retryAfter: 'soon' });
    expect(await deliver('apr-word')).to.deep.equal([503, 200]);
    expect(waits).to.deep.equal([BACKOFF_MS]);
  });
});
