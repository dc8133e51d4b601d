import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { ApprovalError, type ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { rejectHeldCalls } from '../../../plugins/policy/approvals/bulk-reject.js';
import type { AuditRecord } from '../../../plugins/policy/audit/audit-record.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { APPROVERS, PEOPLE, startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../../support/enterprise-fixture.js';

/** An approver who also runs an agent: a developer, whose deletes the policy holds for approval. */
const OLGA = { subject: 'olga', groups: ['approvers', 'developers'], via: 'tokens' };
const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });

function approvalIdOf(result: CallToolResult): string {
  const decision = result._meta?.decision as Decision | undefined;
  if (result._meta?.code !== 'approval_required' || decision?.approvalId === undefined) throw new Error(`not held: ${JSON.stringify(result)}`);
  return decision.approvalId;
}

async function refusal(decision: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await decision.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the decision was made').to.be.instanceOf(ApprovalError);
  return { kind: (error as ApprovalError).kind, message: (error as ApprovalError).message };
}

describe('separation of duties, in the approvals store every decision path goes through (in-process kernel)', () => {
  const audit = tempFile('audit.jsonl', '');
  let ent: EnterpriseKernel;
  let approvals: ApprovalStore;

  before(async () => {
    ent = await startEnterpriseKernel({ env: { MCP_AUDIT_LOG: audit } });
    approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
    ent.jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
  });
  after(() => ent.close());

  const decisionsAudited = (): AuditRecord[] =>
    readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord)
      .filter((r) => r.approval !== undefined);

  it('refuses an approver their own call, whichever way they authenticated; the call stays held and nothing is audited', async () => {
    const id = approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-70'), OLGA));
    const own = 'olga asked for this call, so another approver must decide it.';
    expect(await refusal(approvals.grant(id, OLGA))).to.deep.equal({ kind: 'forbidden', message: own });
    expect(await refusal(approvals.grant(id, { ...OLGA, via: 'oidc' }, 'It is fine.'))).to.deep.equal({ kind: 'forbidden', message: own });
    expect(await refusal(approvals.reject(id, OLGA, 'Changed my mind.'))).to.deep.equal({ kind: 'forbidden', message: own });
    expect((await approvals.get(id))!.status).to.equal('pending');
    expect(approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-70'), OLGA))).to.equal(id);
    expect(ent.jira.requests).to.have.length(0);
    expect(decisionsAudited().filter((r) => r.approval!.id === id)).to.deep.equal([]);
    // Another approver may.
    await approvals.grant(id, APPROVERS.paul);
    expect((await ent.kernel.call('jira_delete', issue('PLAT-70'), OLGA)).isError).to.equal(undefined);
    expect(
      decisionsAudited()
        .filter((r) => r.approval!.id === id)
        .map((r) => [r.principal.subject, r.approval!.requestedBy]),
    ).to.deep.equal([['paul', 'olga']]);
  });

  it('refuses anyone outside MCP_APPROVER_GROUPS, naming the groups', async () => {
    const id = approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-71'), PEOPLE.rene));
    for (const who of [PEOPLE.alice, PEOPLE.dave, { subject: 'approvers', groups: [], via: 'tokens' }])
      expect(await refusal(approvals.grant(id, who))).to.deep.equal({
        kind: 'forbidden',
        message: `Only members of approvers may grant or reject calls; ${who.subject} is not.`,
      });
    expect((await approvals.get(id))!.status).to.equal('pending');
  });

  it("reports each of an approver's own calls in a bulk rejection, and rejects only the others'", async () => {
    const own = [approvalIdOf(await ent.kernel.call('jira_delete', issue('PLAT-72'), OLGA))];
    const outcomes = await rejectHeldCalls(approvals, { subject: 'olga', ids: 'all', approver: OLGA, reason: 'A runaway loop: stop.' });
    expect(outcomes.map((o) => [o.id, o.ok, o.ok ? o.approval.status : `${o.kind}: ${o.message}`])).to.deep.equal([
      [own[0], false, 'forbidden: olga asked for this call, so another approver must decide it.'],
    ]);
    const byPaul = await rejectHeldCalls(approvals, { subject: 'olga', ids: own, approver: APPROVERS.paul, reason: 'A runaway loop: stop.' });
    expect(byPaul.map((o) => o.ok)).to.deep.equal([true]);
  });

  it('lets nobody decide while MCP_APPROVER_GROUPS is empty', async () => {
    const bare = await startEnterpriseKernel({ env: { MCP_APPROVER_GROUPS: '' } });
    try {
      const store = bare.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
      const id = approvalIdOf(await bare.kernel.call('jira_delete', issue('PLAT-73'), PEOPLE.alice));
      expect(await refusal(store.grant(id, APPROVERS.olga))).to.deep.equal({
        kind: 'forbidden',
        message: 'Nobody may grant or reject calls: MCP_APPROVER_GROUPS is empty.',
      });
    } finally {
      await bare.close();
    }
  });
});
