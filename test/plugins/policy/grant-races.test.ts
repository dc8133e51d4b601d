import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ApprovalError, type ApprovalRecord, type ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { APPROVERS, PEOPLE, startEnterpriseKernel, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { allowedUnder, auditRecordsOf, decisionIn, race } from '../../support/grant-races.js';
import { uniqueNamespace } from '../../support/redis.js';
import { BACKENDS } from '../../support/store-backends.js';
import { textOf } from '../../support/test-kernel.js';

/**
 * The review's inputs, in one process: one grant raced by 32 identical retries, and two approvers deciding one
 * approval at once. On SQLite, keyv's delete read and then deleted, so several retries were told they had
 * consumed the grant and ran; deciding read and then wrote, so both approvers were told they decided.
 */
for (const backend of BACKENDS) {
  describe(`single-use grants on the ${backend.kind} store, raced in one process`, function () {
    this.timeout(60_000);
    let ent: EnterpriseKernel;
    let approvals: ApprovalStore;
    let auditLog: string;

    before(async () => {
      auditLog = join(mkdtempSync(join(tmpdir(), 'grant-races-')), 'audit.jsonl');
      ent = await startEnterpriseKernel({
        env: { MCP_STORE_URL: await backend.freshUrl(), MCP_STORE_NAMESPACE: uniqueNamespace('grant-races'), MCP_AUDIT_LOG: auditLog },
      });
      approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
    });
    after(() => ent?.close());
    beforeEach(() => {
      ent.jira.reset();
      ent.jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
    });

    const hold = async (path: string): Promise<string> => {
      const held = await ent.kernel.call('jira_delete', { path }, PEOPLE.rene);
      expect(held._meta, textOf(held)).to.deep.include({ code: 'approval_required' });
      return decisionIn(held)!.approvalId!;
    };
    const deletesOf = (path: string): number => ent.jira.requests.filter((r) => r.method === 'DELETE' && r.path === path).length;

    it('runs a call granted once exactly once when 32 identical retries race for the grant', async () => {
      const path = '/rest/api/3/issue/PLAT-3201';
      const approvalId = await hold(path);
      await approvals.grant(approvalId, APPROVERS.olga);
      const results = await race(32, () => ent.kernel.call('jira_delete', { path }, PEOPLE.rene));

      const ran = results.filter((r) => r.isError !== true);
      expect(deletesOf(path), 'DELETE requests the upstream received').to.equal(1);
      expect(ran, 'retries that ran').to.have.length(1);
      expect(allowedUnder(auditRecordsOf(auditLog), approvalId), 'audit records allowed under the approval').to.have.length(1);
      // Every other retry is held again, all under one new approval, as a replay after the grant would be.
      const heldAgain = results.filter((r) => r.isError === true);
      expect(heldAgain.map((r) => r._meta?.code)).to.deep.equal(Array(31).fill('approval_required'));
      const next = new Set(heldAgain.map((r) => decisionIn(r)!.approvalId));
      expect(next.size).to.equal(1);
      expect(next.has(approvalId)).to.equal(false);
      expect((await approvals.get(approvalId))?.status).to.equal('used');
    });

    it('lets one of two approvers deciding one approval at once decide it; the other is told who decided, and how', async () => {
      const rounds: Array<{ path: string; approvalId: string; verdicts: Array<PromiseSettledResult<ApprovalRecord>> }> = [];
      for (let round = 0; round < 8; round++) {
        const path = `/rest/api/3/issue/PLAT-33${round}`;
        const approvalId = await hold(path);
        // Olga grants while Paul rejects (even rounds), or both grant (odd rounds).
        const verdicts = await Promise.allSettled([
          approvals.grant(approvalId, APPROVERS.olga),
          round % 2 === 0 ? approvals.reject(approvalId, APPROVERS.paul, 'Not this sprint.') : approvals.grant(approvalId, APPROVERS.paul),
        ]);
        rounds.push({ path, approvalId, verdicts });
      }
      const winners = rounds.map((r) => r.verdicts.filter((v) => v.status === 'fulfilled').length);
      expect(winners, 'approvers told they decided, per round').to.deep.equal(Array(8).fill(1));
      for (const { path, approvalId, verdicts } of rounds) {
        const winner = verdicts.find((v): v is PromiseFulfilledResult<ApprovalRecord> => v.status === 'fulfilled')!.value;
        const loser = verdicts.find((v): v is PromiseRejectedResult => v.status === 'rejected')!;
        expect(loser.reason)
          .to.be.instanceOf(ApprovalError)
          .and.to.include({
            kind: 'conflict',
            message: `Approval ${approvalId} was already decided: ${winner.status} by ${winner.decidedBy}.`,
          });
        // What the store keeps, and what the retry does, is the winner's decision.
        expect((await approvals.get(approvalId))?.status).to.equal(winner.status);
        const retry = await ent.kernel.call('jira_delete', { path }, PEOPLE.rene);
        expect(retry.isError === true ? 'refused' : 'ran').to.equal(winner.status === 'granted' ? 'ran' : 'refused');
        expect(deletesOf(path)).to.equal(winner.status === 'granted' ? 1 : 0);
      }
    });
  });
}
