// The console's recent activity reads every writer's chain of the audit log from the files (the log itself, and
// `<log>.w1`, `<log>.w2` of two `--workers` workers), merged by time, and says whether each chain verifies.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AuditLog } from '../../plugins/policy/audit/audit-log.js';
import { AuditView } from '../../plugins/policy/console/audit-view.js';
import { activityPage } from '../../plugins/policy/console/pages/activity-page.js';

const VIEWER = { subject: 'olga', groups: ['approvers'], approver: true, csrf: 'x'.repeat(43) };
const ANY = { principal: '', tool: '', outcome: '' };

/** Appends one call record per [minute, subject] to the chain at `path`, in that order. */
async function write(path: string, calls: ReadonlyArray<[number, string]>): Promise<void> {
  const log = await AuditLog.open(path);
  for (const [minute, subject] of calls) {
    await log.append({
      time: new Date(Date.UTC(2026, 10, 30, 9, minute)).toISOString(),
      principal: { subject, groups: ['developers'], via: 'tokens' },
      tool: subject === 'rene' ? 'circleci_post' : 'jira_get',
      decision: null,
      upstream: null,
      outcome: { status: 'ok' },
      durationMs: 3,
      args: { path: 'string' },
    });
  }
  await log.close();
}

describe("recent activity over every writer's chain", () => {
  let log: string;

  beforeEach(async () => {
    log = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-activity-')), 'audit.jsonl');
    // Written before the server ran with workers (the log itself), then by worker 1 and worker 2 at once.
    await write(log, [[0, 'olga']]);
    await write(`${log}.w1`, [
      [1, 'alice'],
      [3, 'alice'],
      [6, 'rene'],
    ]);
    await write(`${log}.w2`, [
      [2, 'rene'],
      [4, 'alice'],
      [5, 'olga'],
    ]);
  });

  it('merges the records of every writer by time, newest first, each with its writer and its number in that chain', async () => {
    const { records, scanned, seen } = await new AuditView(log).recent(ANY);
    expect(scanned).to.equal(7);
    expect(records.map((r) => [r.time.slice(11, 16), (r as { writer?: string }).writer, r.seq, r.principal.subject])).to.deep.equal([
      ['09:06', 'w1', 3, 'rene'],
      ['09:05', 'w2', 3, 'olga'],
      ['09:04', 'w2', 2, 'alice'],
      ['09:03', 'w1', 2, 'alice'],
      ['09:02', 'w2', 1, 'rene'],
      ['09:01', 'w1', 1, 'alice'],
      ['09:00', '', 1, 'olga'],
    ]);
    expect(seen).to.deep.equal({ principals: ['alice', 'olga', 'rene'], tools: ['circleci_post', 'jira_get'] });
    const rene = await new AuditView(log).recent({ ...ANY, principal: 'rene' });
    expect(rene.records.map((r) => `${(r as { writer?: string }).writer}#${r.seq}`)).to.deep.equal(['w1#3', 'w2#1']);
  });

  it('shows the writers on the page, and which record of which writer broke the chain', async () => {
    const view = new AuditView(log);
    const render = async (): Promise<string> => {
      const [{ records, scanned, seen }, verification] = await Promise.all([view.recent(ANY), view.verification()]);
      return activityPage(VIEWER, ANY, { path: log, records, scanned, verification, principals: seen.principals, tools: seen.tools }).body.text;
    };
    const intact = await render();
    expect(intact).to.include(`<strong>Audit chain verified</strong>: 7 records in <code>${log}</code> and its writers' chains (w1, w2)`);
    expect(intact).to.include('<td data-label="#"><span class="muted">w2</span> 3</td>');
    expect(intact).to.include('<td data-label="#">1</td>');
    const lines = readFileSync(`${log}.w2`, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"subject":"alice"', '"subject":"mallory"');
    writeFileSync(`${log}.w2`, lines.join('\n'));
    const broken = await render();
    expect(broken).to.include('<strong>Audit chain broken</strong>');
    expect(broken).to.include('<li>writer w2: line 2 (record 2): its content does not match its hash: the record was edited.</li>');
  });

  it('files webhook deliveries under "notified", naming the event, the receiver and how the attempt went', async () => {
    const chain = await AuditLog.open(`${log}.w3`);
    const delivery = {
      event: 'approval.held',
      eventId: 'apr-0123456789abcdef01234567.held',
      approvalId: 'apr-0123456789abcdef01234567',
      receiver: 'https://hooks.example',
    };
    for (const [attempt, delivered] of [
      [1, false],
      [2, true],
    ] as const) {
      await chain.append({
        time: new Date(Date.UTC(2026, 10, 30, 9, 7 + attempt)).toISOString(),
        principal: { subject: 'mcp-devtools', groups: [], via: 'webhook' },
        tool: 'jira_delete',
        decision: null,
        upstream: null,
        outcome: delivered ? { status: 'ok' } : { status: 'error', code: 'webhook_failed' },
        durationMs: 12,
        args: {},
        notification: {
          ...delivery,
          attempt,
          delivered,
          ...(delivered ? { status: 200 } : { status: 503, error: 'the receiver answered 503' }),
          retrying: !delivered,
        },
      });
    }
    await chain.close();
    const { records } = await new AuditView(log).recent({ ...ANY, outcome: 'notified' });
    expect(records.map((r) => [r.notification!.attempt, r.notification!.delivered])).to.deep.equal([
      [2, true],
      [1, false],
    ]);
    const verification = await new AuditView(log).verification();
    const page = activityPage(VIEWER, { ...ANY, outcome: 'notified' }, { path: log, records, scanned: 9, verification, principals: [], tools: [] }).body.text;
    expect(page).to.include(
      'approval.held to https://hooks.example, attempt 1: <span class="status error">not delivered</span> (the receiver answered 503), retrying',
    );
    expect(page).to.include('<span class="outcome notified">notified</span>');
  });
});
