import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { ApprovalError, type ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { rejectHeldCalls } from '../../../plugins/policy/approvals/bulk-reject.js';
import type { AuditRecord } from '../../../plugins/policy/audit/audit-record.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { APPROVERS, manualClock, PEOPLE, startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { textOf } from '../../support/test-kernel.js';

const OLGA = { subject: 'olga', groups: ['approvers'], via: 'tokens' };
const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });

function approvalIdOf(result: CallToolResult): string {
  const decision = result._meta?.decision as Decision | undefined;
  if (result._meta?.code !== 'approval_required' || decision?.approvalId === undefined) throw new Error(`not held: ${JSON.stringify(result)}`);
  return decision.approvalId;
}

describe('deciding a held call, with a reason (in-process kernel)', () => {
  const clock = manualClock();
  const audit = tempFile('audit.jsonl', '');
  let ent: EnterpriseKernel;
  let approvals: ApprovalStore;

  before(async () => {
    ent = await startEnterpriseKernel({ clock, env: { MCP_AUDIT_LOG: audit } });
    approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
    ent.jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
  });
  after(() => ent.close());

  const records = (): AuditRecord[] =>
    readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);

  it("tells the caller's retry who granted it and why, in its text and its _meta", async () => {
    const id = approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-20'), PEOPLE.alice));
    await approvals.grant(id, OLGA, '  PLAT-20 was a   duplicate of PLAT-19. ');
    const ran = await ent.kernel.call('jira_delete', issue('PLAT-20'), PEOPLE.alice);
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    const at = new Date(clock.now()).toISOString();
    expect(ran._meta!['mcp-devtools/approval']).to.deep.equal({ id, status: 'granted', by: 'olga', at, reason: 'PLAT-20 was a duplicate of PLAT-19.' });
    // The tool's own answer stays first; the last block says on whose word it ran.
    expect(ran.content.at(-1)).to.deep.equal({ type: 'text', text: `Ran on approval ${id}, granted by olga at ${at}: PLAT-20 was a duplicate of PLAT-19.` });
    expect(ran.content).to.have.length(2);
  });

  it('refuses a rejection without a reason, and tells the caller the reason of one with it', async () => {
    const id = approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-21'), PEOPLE.alice));
    for (const blank of [undefined, '', '   ']) {
      const error = (await approvals.reject(id, OLGA, blank).catch((e: unknown) => e)) as ApprovalError;
      expect(error).to.be.instanceOf(ApprovalError);
      expect([error.kind, error.message]).to.deep.equal(['invalid', 'Say why you reject the call: the reason is told to the caller.']);
    }
    expect(((await approvals.grant(id, OLGA, 'x'.repeat(501)).catch((e: unknown) => e)) as ApprovalError).message).to.equal(
      'Keep the reason under 500 characters.',
    );
    expect((await approvals.get(id))!.status).to.equal('pending');
    await approvals.reject(id, OLGA, 'PLAT-21 holds the audit trail.');
    const refused = await ent.kernel.call('jira_delete', issue('PLAT-21'), PEOPLE.alice);
    expect(refused._meta!.code).to.equal('policy_denied');
    expect(textOf(refused)).to.include(`olga rejected approval ${id} for this call: PLAT-21 holds the audit trail.`);
    expect(refused._meta!['mcp-devtools/approval']).to.deep.include({ id, status: 'rejected', by: 'olga', reason: 'PLAT-21 holds the audit trail.' });
  });

  it('records each decision in the audit log, with the approver, the reason, the request and until when it holds', () => {
    const decisions = records().filter((r) => r.approval !== undefined);
    expect(decisions.map((r) => [r.principal, r.approval!.status, r.approval!.reason, r.approval!.request])).to.deep.equal([
      [OLGA, 'granted', 'PLAT-20 was a duplicate of PLAT-19.', { method: 'DELETE', path: '/rest/api/3/issue/PLAT-20' }],
      [OLGA, 'rejected', 'PLAT-21 holds the audit trail.', { method: 'DELETE', path: '/rest/api/3/issue/PLAT-21' }],
    ]);
    expect(decisions[0]!.upstream).to.deep.include({ credential: 'jira-bot', environment: 'production' });
    expect(decisions[0]!.approval!.expiresAt).to.match(/^\d{4}-\d\d-\d\dT/);
    // The run on the grant names the approval and its approver.
    const run = records().find((r) => r.approval === undefined && r.decision?.approval?.id === decisions[0]!.approval!.id)!;
    expect(run.outcome).to.deep.equal({ status: 'ok' });
    expect(run.decision!.approval).to.include({ status: 'granted', by: 'olga' });
  });

  describe("rejecting a runaway agent's held calls at once", () => {
    it('rejects every pending call of one principal with one reason, each by compare-and-set', async () => {
      const ids: string[] = [];
      for (const key of ['PLAT-30', 'PLAT-31', 'PLAT-32']) ids.push(approvalIdOf(await ent.kernel.call('jira_delete', issue(key), PEOPLE.alice)));
      const renes = approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-33'), PEOPLE.rene));
      // Someone else decided one of them meanwhile: it is reported, not overwritten.
      await approvals.grant(ids[1]!, APPROVERS.paul, 'Fine.');
      const outcomes = await rejectHeldCalls(approvals, { subject: 'alice', ids: [...ids, renes], approver: OLGA, reason: 'A runaway loop: stop.' });
      expect(outcomes.map((o) => [o.id, o.ok, o.ok ? o.approval.status : o.message])).to.deep.equal([
        [ids[0], true, 'rejected'],
        [ids[1], false, `Approval ${ids[1]} was already decided: granted by paul.`],
        [ids[2], true, 'rejected'],
        [renes, false, `Approval ${renes} is rene's, not alice's.`],
      ]);
      expect((await approvals.get(renes))!.status).to.equal('pending');
      for (const key of ['PLAT-30', 'PLAT-32'])
        expect(textOf(await ent.kernel.call('jira_delete', issue(key), PEOPLE.alice))).to.include('for this call: A runaway loop: stop.');
    });

    it("rejects all of a principal's pending calls when no ids are named, and nothing without a reason", async () => {
      for (const key of ['PLAT-40', 'PLAT-41']) approvalIdOf(await ent.kernel.call('jira_delete', issue(key), PEOPLE.alice));
      const error = (await rejectHeldCalls(approvals, { subject: 'alice', ids: 'all', approver: OLGA, reason: ' ' }).catch((e: unknown) => e)) as ApprovalError;
      expect(error.kind).to.equal('invalid');
      expect((await approvals.list()).filter((a) => a.subject === 'alice' && a.status === 'pending')).to.have.length(2);
      const outcomes = await rejectHeldCalls(approvals, { subject: 'alice', ids: 'all', approver: OLGA, reason: 'Stop.' });
      expect(outcomes.map((o) => o.ok)).to.deep.equal([true, true]);
      expect((await approvals.list()).filter((a) => a.subject === 'alice' && a.status === 'pending')).to.deep.equal([]);
      const none = (await rejectHeldCalls(approvals, { subject: 'alice', ids: 'all', approver: OLGA, reason: 'Stop.' }).catch(
        (e: unknown) => e,
      )) as ApprovalError;
      expect([none.kind, none.message]).to.deep.equal(['not_found', 'alice has no pending approvals.']);
    });
  });
});
