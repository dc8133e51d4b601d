import { writeFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { ApprovalError, type ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import type { PolicySource } from '../../../plugins/policy/policy-source.js';
import { APPROVERS, docsPolicyExample, manualClock, PEOPLE, startEnterpriseKernel, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { textOf } from '../../support/test-kernel.js';

const DELETE = { path: '/rest/api/3/issue/PLAT-7' };
const TTL_SECONDS = 600;

function decisionOf(result: CallToolResult): Decision {
  return result._meta!.decision as Decision;
}

describe('approvals (in-process kernel, memory store, a clock the test moves)', () => {
  const clock = manualClock();
  let ent: EnterpriseKernel;
  let approvals: ApprovalStore;

  before(async () => {
    ent = await startEnterpriseKernel({ clock, env: { MCP_APPROVAL_TTL_SECONDS: String(TTL_SECONDS) } });
    approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
  });
  after(() => ent.close());
  beforeEach(() => {
    ent.jira.reset();
    ent.jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
  });

  const held = async (principal = PEOPLE.alice, args: Record<string, unknown> = DELETE): Promise<Decision> => {
    const result = await ent.kernel.call('jira_delete', args, principal);
    expect(result.isError, textOf(result)).to.equal(true);
    expect(result._meta).to.deep.include({ code: 'approval_required' });
    return decisionOf(result);
  };

  it('holds the call under a pending approval that says until when, and what to do', async () => {
    const result = await ent.kernel.call('jira_delete', DELETE, PEOPLE.alice);
    const decision = decisionOf(result);
    expect(decision).to.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
    expect(decision.approvalId).to.match(/^apr-[0-9a-f]{24}$/);
    expect(Date.parse(decision.expiresAt!)).to.equal(clock.now() + TTL_SECONDS * 1000);
    expect(textOf(result)).to.contain(
      `Approval ${decision.approvalId} is pending until ${decision.expiresAt}. Ask an approver to grant it (mcp-devtools approvals grant ${decision.approvalId}), then retry the same call with the same arguments`,
    );
    expect(ent.jira.requests).to.have.length(0);
    // Retrying before a decision finds the same approval rather than piling up new ones.
    expect((await held()).approvalId).to.equal(decision.approvalId);
    const listed = (await approvals.list()).find((a) => a.id === decision.approvalId)!;
    expect(listed).to.deep.include({
      status: 'pending',
      subject: 'alice',
      tool: 'jira_delete',
      request: { method: 'DELETE', path: '/rest/api/3/issue/PLAT-7' },
      arguments: '{"path":"/rest/api/3/issue/PLAT-7"}',
    });
  });

  it('after a grant, runs the same call by the same principal once; a replay is held again', async () => {
    const { approvalId } = await held();
    await approvals.grant(approvalId!, APPROVERS.olga);
    // Presentation arguments do not change what runs upstream, so they do not break the binding.
    const ran = await ent.kernel.call('jira_delete', { ...DELETE, outputFormat: 'json' }, PEOPLE.alice);
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    expect(ran._meta).to.deep.equal({
      'mcp-devtools/upstream': { vendor: 'jira', credential: 'jira-bot', host: new URL(ent.jira.url).host, environment: 'production' },
      'mcp-devtools/approval': { id: approvalId, status: 'granted', by: 'olga', at: new Date(clock.now()).toISOString() },
    });
    expect(ent.jira.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['DELETE /rest/api/3/issue/PLAT-7']);
    const replay = await held();
    expect(replay.approvalId).not.to.equal(approvalId);
    expect(ent.jira.requests).to.have.length(1);
    expect((await approvals.get(approvalId!))?.status).to.equal('used');
  });

  it('does not let another principal, or other arguments, use a grant', async () => {
    const { approvalId } = await held();
    await approvals.grant(approvalId!, APPROVERS.olga);
    const other = await held(PEOPLE.rene);
    expect(other.approvalId).not.to.equal(approvalId);
    const otherArgs = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-8' });
    expect(otherArgs.approvalId).not.to.equal(approvalId);
    expect(ent.jira.requests).to.have.length(0);
    // The grant is still there for the call it was given for.
    expect((await ent.kernel.call('jira_delete', DELETE, PEOPLE.alice)).isError).to.equal(undefined);
  });

  it('denies the call after a rejection, naming the approver', async () => {
    const { approvalId } = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-9' });
    await approvals.reject(approvalId!, APPROVERS.olga, 'PLAT-9 is still in use.');
    const result = await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-9' }, PEOPLE.alice);
    expect(result._meta).to.deep.include({ code: 'policy_denied' });
    expect(decisionOf(result)).to.include({ effect: 'deny', ruleId: 'deletes-need-approval', approvalId });
    expect(decisionOf(result).reason).to.match(/^olga rejected approval apr-[0-9a-f]{24} for this call: PLAT-9 is still in use\./);
    expect(ent.jira.requests).to.have.length(0);
  });

  it('refuses to decide an approval twice, or one that does not exist', async () => {
    const { approvalId } = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-10' });
    await approvals.grant(approvalId!, APPROVERS.olga);
    const twice = await approvals.reject(approvalId!, APPROVERS.paul).catch((e: unknown) => e);
    expect(twice)
      .to.be.instanceOf(ApprovalError)
      .and.to.include({ kind: 'conflict', message: `Approval ${approvalId} was already decided: granted by olga.` });
    const unknown = await approvals.grant('apr-000000000000000000000000', APPROVERS.olga).catch((e: unknown) => e);
    expect(unknown).to.be.instanceOf(ApprovalError).and.to.include({ kind: 'not_found' });
  });

  it('lets a pending approval, and an unused grant, expire', async () => {
    const pending = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-11' });
    clock.advance(TTL_SECONDS * 1000 + 1);
    expect(await approvals.grant(pending.approvalId!, APPROVERS.olga).catch((e: unknown) => (e as ApprovalError).kind)).to.equal('not_found');
    const fresh = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-11' });
    expect(fresh.approvalId).not.to.equal(pending.approvalId);
    await approvals.grant(fresh.approvalId!, APPROVERS.olga);
    clock.advance(TTL_SECONDS * 1000 - 1);
    expect((await approvals.get(fresh.approvalId!))?.status).to.equal('granted');
    clock.advance(2);
    expect((await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-11' })).approvalId).not.to.equal(fresh.approvalId);
    expect(ent.jira.requests).to.have.length(0);
  });

  it('does not honour a grant made under a policy that has changed since', async () => {
    const { approvalId, policyVersion } = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-12' });
    await approvals.grant(approvalId!, APPROVERS.olga);
    writeFileSync(ent.policyPath!, docsPolicyExample().replace('Deletes and pipeline triggers are reviewed', 'Deletes are reviewed'));
    await ent.kernel.kernel.resolve<PolicySource>(POLICY_TOKENS.PolicySource).check();
    const after = await held(PEOPLE.alice, { path: '/rest/api/3/issue/PLAT-12' });
    expect(after.policyVersion).not.to.equal(policyVersion);
    expect(after.approvalId).not.to.equal(approvalId);
    expect(ent.jira.requests).to.have.length(0);
  });
});
