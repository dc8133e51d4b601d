import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { AuditLog, headPathOf } from '../../../plugins/policy/audit/audit-log.js';
import { recordHash, type AuditRecord } from '../../../plugins/policy/audit/audit-record.js';
import { verifyAuditLog } from '../../../plugins/policy/audit/verify-audit-log.js';
import { PEOPLE, startEnterpriseKernel } from '../../support/enterprise-fixture.js';

function freshLog(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcp-devtools-audit-')), 'audit.jsonl');
}

function readRecords(path: string): AuditRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditRecord);
}

async function writeLog(path: string, count: number): Promise<void> {
  const log = await AuditLog.open(path);
  for (let i = 0; i < count; i++) {
    await log.append({
      time: new Date(Date.UTC(2026, 10, 30, 9, 0, i)).toISOString(),
      principal: { subject: `user-${i}`, groups: ['developers'], via: 'tokens' },
      tool: 'jira_get',
      decision: null,
      upstream: { vendor: 'jira', credential: 'jira-bot', host: 'acme.atlassian.net', environment: 'production' },
      outcome: { status: 'ok' },
      durationMs: 1.5,
      args: { path: 'string' },
    });
  }
  await log.close();
}

/** Rewrites the log's lines with `edit` and returns what verification says. */
async function tamper(edit: (lines: string[]) => string[]): Promise<{ ok: boolean; problems: string[] }> {
  const path = freshLog();
  await writeLog(path, 5);
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  writeFileSync(path, `${edit(lines).join('\n')}\n`);
  return verifyAuditLog(path);
}

describe('audit log', () => {
  it('records every call, whatever its end, with the argument shape but never a value', async () => {
    const audit = freshLog();
    const ent = await startEnterpriseKernel({ env: { MCP_AUDIT_LOG: audit } });
    try {
      ent.jira.on('POST', '/rest/api/3/issue', { status: 201, body: { key: 'PLAT-42' } });
      ent.jira.on('GET', '/rest/api/3/issue/PLAT-404', { status: 404, body: { errorMessages: ['Issue does not exist'] } });
      const body = { fields: { project: { key: 'PLAT' }, summary: 'canary summary 3c1d', labels: ['ci', 'flaky'], storyPoints: 3 } };
      await ent.kernel.call('jira_post', { path: '/rest/api/3/issue', body }, PEOPLE.alice);
      await ent.kernel.call('jira_post', { path: '/rest/api/3/issue', body }, PEOPLE.carol);
      await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-77' }, PEOPLE.alice);
      await ent.kernel.call('jira_get', { path: '/rest/api/3/issue/PLAT-404' }, PEOPLE.rene);
      await ent.kernel.call('jira_get', { path: 42, secretish: 'canary value 9e2f' }, PEOPLE.dave);
    } finally {
      await ent.close();
    }
    const records = readRecords(audit);
    expect(records.map((r) => [r.seq, r.principal.subject, r.tool, r.decision?.effect ?? null, r.decision?.ruleId ?? null, r.outcome])).to.deep.equal([
      [1, 'alice', 'jira_post', 'allow', 'jira-creates-for-developers', { status: 'ok' }],
      [2, 'carol', 'jira_post', 'deny', 'contractors-read-only', { status: 'error', code: 'policy_denied' }],
      [3, 'alice', 'jira_delete', 'approval_required', 'deletes-need-approval', { status: 'error', code: 'approval_required' }],
      [4, 'rene', 'jira_get', 'allow', 'everyone-reads', { status: 'error', code: 'upstream_http_error' }],
      [5, 'dave', 'jira_get', null, null, { status: 'error', code: 'invalid_arguments' }],
    ]);
    expect(records[0]!.args).to.deep.equal({
      body: { fields: { labels: 'array(2)', project: { key: 'string' }, storyPoints: 'number', summary: 'string' } },
      path: 'string',
    });
    expect(records[4]!.args).to.deep.equal({ path: 'number', secretish: 'string' });
    expect(records[2]!.decision!.approvalId).to.match(/^apr-/);
    expect(records[0]!.principal).to.deep.equal({ subject: 'alice', groups: ['developers'], via: 'tokens' });
    expect(records[0]!.upstream).to.deep.include({ vendor: 'jira', credential: 'jira-bot', environment: 'production' });
    expect(records.every((r) => typeof r.durationMs === 'number' && r.durationMs >= 0 && !Number.isNaN(Date.parse(r.time)))).to.equal(true);
    const text = readFileSync(audit, 'utf8');
    for (const value of ['canary summary 3c1d', 'canary value 9e2f', 'PLAT-77', 'PLAT-404', 'flaky', 'jira-canary-secret-7f3a'])
      expect(text).not.to.contain(value);
    expect(await verifyAuditLog(audit)).to.deep.include({ ok: true, records: 5 });
  });

  it('records calls without a policy too, with a null decision and no _meta on results', async () => {
    const audit = freshLog();
    const ent = await startEnterpriseKernel({ policy: null, env: { MCP_AUDIT_LOG: audit } });
    try {
      ent.jira.on('GET', '/rest/api/3/myself', { body: { accountId: 'x' } });
      const result = await ent.kernel.call('jira_get', { path: '/rest/api/3/myself' }, PEOPLE.carol);
      expect(result._meta).to.equal(undefined);
    } finally {
      await ent.close();
    }
    expect(readRecords(audit).map((r) => [r.tool, r.decision, r.outcome.status, r.upstream?.vendor])).to.deep.equal([['jira_get', null, 'ok', 'jira']]);
  });

  it('continues the chain across restarts', async () => {
    const path = freshLog();
    await writeLog(path, 2);
    await writeLog(path, 3);
    expect(readRecords(path).map((r) => r.seq)).to.deep.equal([1, 2, 3, 4, 5]);
    const report = await verifyAuditLog(path);
    expect(report).to.deep.include({ ok: true, records: 5, problems: [], notes: [] });
    expect(report.chains.map((c) => [c.writer, c.path, c.records, c.ok])).to.deep.equal([['', path, 5, true]]);
  });

  it('fails verification, naming the line, for an edited record', async () => {
    const report = await tamper((lines) => lines.map((l, i) => (i === 2 ? l.replace('"user-2"', '"user-9"') : l)));
    expect(report.ok).to.equal(false);
    expect(report.problems).to.deep.equal(['line 3 (record 3): its content does not match its hash: the record was edited.']);
  });

  it('fails verification for a removed record, an inserted copy and two records swapped', async () => {
    const removed = await tamper((lines) => lines.filter((_, i) => i !== 1));
    expect(removed.problems).to.deep.equal([
      'line 2 (record 3): it does not follow the record before it (a record was removed, inserted or reordered).',
      'line 2: record number 3 follows record 1, not 2.',
    ]);
    const inserted = await tamper((lines) => [...lines.slice(0, 3), lines[1]!, ...lines.slice(3)]);
    expect(inserted.ok).to.equal(false);
    expect(inserted.problems[0]).to.match(/^line 4 \(record 2\): it does not follow/);
    const swapped = await tamper((lines) => [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)]);
    expect(swapped.ok).to.equal(false);
    expect(swapped.problems[0]).to.match(/^line 2 \(record 3\): it does not follow/);
  });

  it('fails verification when records are cut from the end, or the last one is half written', async () => {
    const cut = await tamper((lines) => lines.slice(0, 3));
    expect(cut.problems).to.have.length(1);
    expect(cut.problems[0]).to.match(/^the log ends at record 3, but .*audit\.jsonl\.head says record 5 was written: records were removed from the end\.$/);
    const partial = await tamper((lines) => [...lines.slice(0, 4), lines[4]!.slice(0, 40)]);
    expect(partial.problems).to.include('line 5: not a complete audit record (edited, or cut while being written).');
  });

  it("fails verification when the tail is cut and the head file deleted (the review's case), or the head file alone is gone", async () => {
    const path = freshLog();
    await writeLog(path, 5);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileSync(path, `${lines.slice(0, 3).join('\n')}\n`);
    rmSync(headPathOf(path));
    const report = await verifyAuditLog(path);
    expect(report.ok).to.equal(false);
    expect(report.problems).to.have.length(1);
    expect(report.problems[0]).to.match(
      /audit\.jsonl\.head is missing, though the log has records: it was deleted, so records cut from the end cannot be ruled out\.$/,
    );
    const empty = freshLog();
    writeFileSync(empty, '');
    expect(await verifyAuditLog(empty)).to.deep.include({ ok: true, records: 0 });
  });

  it("fails verification for a re-sealed edit, even when the next record's prev is patched to match (prev is sealed too)", async () => {
    const report = await tamper((lines) => {
      const records = lines.map((l) => JSON.parse(l) as AuditRecord);
      const edited = { ...records[2]!, principal: { ...records[2]!.principal, subject: 'mallory' } };
      edited.hash = recordHash(edited);
      const next = { ...records[3]!, prev: edited.hash };
      return lines.map((l, i) => (i === 2 ? JSON.stringify(edited) : i === 3 ? JSON.stringify(next) : l));
    });
    expect(report.ok).to.equal(false);
    expect(report.problems).to.deep.equal(['line 4 (record 4): its content does not match its hash: the record was edited.']);
  });

  it('fails verification for a line not written as the server writes it: a duplicate key, spacing, escapes', async () => {
    const duplicate = await tamper((lines) => lines.map((l, i) => (i === 1 ? l.replace('"tool":"jira_get"', '"tool":"jira_delete","tool":"jira_get"') : l)));
    expect(duplicate.problems).to.deep.equal([
      'line 2 (record 2): it is not written as the server writes records (a duplicate key, spacing or escapes were changed): the line was edited.',
    ]);
    const spaced = await tamper((lines) => lines.map((l, i) => (i === 1 ? l.replace('"tool":', '"tool": ') : l)));
    expect(spaced.ok).to.equal(false);
    const escaped = await tamper((lines) => lines.map((l, i) => (i === 1 ? l.replace('"user-1"', '"\\u0075ser-1"') : l)));
    expect(escaped.problems).to.have.length(1);
    expect(escaped.problems[0]).to.match(/^line 2 \(record 2\): it is not written as the server writes records/);
  });

  it('refuses to start on a log with records whose head file is missing or unreadable, rather than write a fresh head', async () => {
    const path = freshLog();
    await writeLog(path, 2);
    rmSync(headPathOf(path));
    const missing = await AuditLog.open(path).catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(StartupError);
    expect((missing as Error).message)
      .to.contain('the log has records, but')
      .and.to.contain('audit.jsonl.head is missing');
    writeFileSync(headPathOf(path), '{"seq": 2, "hash": "not hex"}');
    const corrupt = await AuditLog.open(path).catch((e: unknown) => e);
    expect((corrupt as Error).message).to.contain('audit.jsonl.head cannot be read (it is not {"seq": N, "hash": "<64 hex>"})');
    expect(readFileSync(headPathOf(path), 'utf8')).to.equal('{"seq": 2, "hash": "not hex"}');
    const fresh = freshLog();
    const log = await AuditLog.open(fresh);
    await log.close();
  });

  it('refuses to reopen a log that was cut since its head was written, rather than overwrite the evidence', async () => {
    const path = freshLog();
    await writeLog(path, 3);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileSync(path, `${lines.slice(0, 2).join('\n')}\n`);
    const error = await AuditLog.open(path).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StartupError);
    expect((error as Error).message)
      .to.contain('ends at record 2, but')
      .and.to.contain('says record 3 was written: the log was cut or edited');
  });

  it('refuses to reopen a log whose last record was replaced and re-sealed under the same number, keeping the head file as it was', async () => {
    const path = freshLog();
    await writeLog(path, 3);
    const head = readFileSync(headPathOf(path), 'utf8');
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const last = JSON.parse(lines[2]!) as AuditRecord;
    // Same number, same prev, a valid hash of the new content: only the head file still knows the old record.
    const { hash: _old, ...unsealed } = { ...last, principal: { ...last.principal, subject: 'mallory' } };
    const forged = { ...unsealed, hash: recordHash(unsealed) };
    writeFileSync(path, `${[...lines.slice(0, 2), JSON.stringify(forged)].join('\n')}\n`);
    const error = await AuditLog.open(path).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StartupError);
    expect((error as Error).message).to.contain('says record 3 was written: the log was cut or edited');
    // Nothing was written: the head file still holds the evidence for `audit verify`.
    expect(readFileSync(headPathOf(path), 'utf8')).to.equal(head);
    expect((await verifyAuditLog(path)).ok).to.equal(false);
  });

  it('continues after a crash mid-write: the half-written line is ended, the next record starts its own line and verify names only the half line', async () => {
    const path = freshLog();
    await writeLog(path, 4);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const fourth = JSON.parse(lines[3]!) as AuditRecord;
    // The fifth record was being written when the process died: part of its line, no newline, the head still at 4.
    writeFileSync(path, `${lines.join('\n')}\n${lines[3]!.replace('"seq":4', '"seq":5').slice(0, 60)}`);
    const log = await AuditLog.open(path);
    expect(log.current).to.deep.equal({ seq: 4, hash: fourth.hash });
    const { seq: _seq, prev: _prev, hash: _hash, ...entry } = fourth;
    await log.append({ ...entry, time: new Date(Date.UTC(2026, 10, 30, 9, 1, 0)).toISOString() });
    await log.close();
    const after = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(after).to.have.length(6);
    expect(JSON.parse(after[5]!)).to.deep.include({ seq: 5, prev: fourth.hash });
    expect((await verifyAuditLog(path)).problems).to.deep.equal(['line 5: not a complete audit record (edited, or cut while being written).']);
  });
});
