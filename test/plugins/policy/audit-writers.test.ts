// An audit log with several writers: the log itself and `<log>.<writer>` chains (a `--workers` worker's, or a
// replica's MCP_AUDIT_WRITER). `audit verify` checks each chain on its own and names the writer and the record
// that breaks. A chain at `<log>.w2` is what writer w2 appends to, so the chains here are opened by that path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AuditLog, headPathOf } from '../../../plugins/policy/audit/audit-log.js';
import { verifyAuditLog } from '../../../plugins/policy/audit/verify-audit-log.js';
import { runCli } from '../../support/run-cli.js';

function freshLog(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcp-devtools-audit-writers-')), 'audit.jsonl');
}

async function writeChain(path: string, count: number, subject: string): Promise<void> {
  const log = await AuditLog.open(path);
  for (let i = 0; i < count; i++) {
    await log.append({
      time: new Date(Date.UTC(2026, 10, 30, 9, 0, i)).toISOString(),
      principal: { subject, groups: ['developers'], via: 'tokens' },
      tool: 'jira_get',
      decision: null,
      upstream: { vendor: 'jira', credential: 'jira-bot', host: 'acme.atlassian.net', environment: 'production' },
      outcome: { status: 'ok' },
      durationMs: 2.5,
      args: { path: 'string' },
    });
  }
  await log.close();
}

/** A log as `--workers 2` leaves it: worker 1's chain of 4 records and worker 2's of 5. */
async function twoWorkers(): Promise<string> {
  const log = freshLog();
  await writeChain(`${log}.w1`, 4, 'alice');
  await writeChain(`${log}.w2`, 5, 'rene');
  return log;
}

function rewrite(path: string, edit: (lines: string[]) => string[]): void {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  writeFileSync(path, `${edit(lines).join('\n')}\n`);
}

describe('audit log with several writers', function () {
  this.timeout(30_000);

  it('verifies every chain of the log on its own: intact chains pass, with each counted', async () => {
    const log = await twoWorkers();
    const run = await runCli(['audit', 'verify', log]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.equal(
      `${log}: OK, 9 records in 2 writers' chains, every chain intact.\n` +
        `  writer w1 (${log}.w1): 4 records, intact\n` +
        `  writer w2 (${log}.w2): 5 records, intact\n`,
    );
  });

  it('names the writer and the record when one record of one chain is edited', async () => {
    const log = await twoWorkers();
    rewrite(`${log}.w2`, (lines) => lines.map((l, i) => (i === 2 ? l.replace('"subject":"rene"', '"subject":"mallory"') : l)));
    const report = await verifyAuditLog(log);
    expect(report.ok).to.equal(false);
    expect(report.problems).to.deep.equal(['writer w2: line 3 (record 3): its content does not match its hash: the record was edited.']);
    const run = await runCli(['audit', 'verify', log]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal(
      `${log}: FAILED (9 records read in 2 writers' chains)\n` +
        `  writer w1 (${log}.w1): 4 records, intact\n` +
        `  writer w2 (${log}.w2): 5 records, BROKEN\n` +
        `  writer w2: line 3 (record 3): its content does not match its hash: the record was edited.\n`,
    );
  });

  it("refuses a log cut to its first record with its head file deleted: the log itself, and a writer's chain", async () => {
    const single = freshLog();
    await writeChain(single, 5, 'alice');
    rewrite(single, (lines) => lines.slice(0, 1));
    rmSync(headPathOf(single));
    const one = await runCli(['audit', 'verify', single]);
    expect(one.code).to.equal(1);
    expect(one.stdout).to.include(`${single}.head is missing, though the log has records: it was deleted, so records cut from the end cannot be ruled out.`);

    const log = await twoWorkers();
    rewrite(`${log}.w1`, (lines) => lines.slice(0, 1));
    rmSync(headPathOf(`${log}.w1`));
    const run = await runCli(['audit', 'verify', log]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.include(
      `  writer w1: ${log}.w1.head is missing, though the log has records: it was deleted, so records cut from the end cannot be ruled out.\n`,
    );
  });

  it("reports a writer's chain deleted while its head file remains", async () => {
    const log = await twoWorkers();
    rmSync(`${log}.w2`);
    const report = await verifyAuditLog(log);
    expect(report.ok).to.equal(false);
    expect(report.problems).to.deep.equal([`writer w2: ${log}.w2 is missing, but ${log}.w2.head says 5 records were written: the chain was deleted.`]);
  });

  it("continues each writer's chain across restarts, and keeps the log itself a chain of its own", async () => {
    const log = freshLog();
    await writeChain(log, 2, 'olga');
    await writeChain(`${log}.w1`, 2, 'alice');
    await writeChain(`${log}.w1`, 3, 'alice');
    const report = await verifyAuditLog(log);
    expect(report.problems).to.deep.equal([]);
    expect(report.records).to.equal(7);
    const seqs = readFileSync(`${log}.w1`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('says plainly when there is no log at all', async () => {
    const run = await runCli(['audit', 'verify', freshLog()]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/Cannot read the audit log .*audit\.jsonl/);
  });
});
