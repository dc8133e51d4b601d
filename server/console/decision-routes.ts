import type { ApprovalStore } from '../../plugins/policy/index.js';
import type { DecisionHistory } from './decision-history.js';
import { APPROVAL_ID, type Decisions, type Verdict } from './decisions.js';
import { readForm, redirect, sendHtml } from './http-kit.js';
import type { ApprovalsView } from './pages/approvals-page.js';
import { approvalPage, bulkRejectPage, confirmPage } from './pages/decision-page.js';
import type { ConsoleRequest } from './request-context.js';
import type { ConsoleSession } from './sessions.js';

export const ONE = /^\/console\/approvals\/(apr-[0-9a-f]{24})$/;
export const DECIDE = /^\/console\/approvals\/([^/]+)\/(grant|reject)$/;
export const BULK = '/console/approvals/bulk-reject';

/**
 * The pages where approvers decide: one approval (the link of a webhook event), the confirmation step of a
 * grant or a rejection, and of a bulk rejection. A POST decides only once confirmed (`confirmed=yes`, which
 * only the confirmation page sends): any other lands on that page with what was typed kept.
 */
export class DecisionRoutes {
  constructor(
    private readonly approvals: ApprovalStore,
    private readonly decisions: Decisions,
    private readonly history: DecisionHistory | undefined,
    private readonly view: (s: ConsoleSession) => ApprovalsView,
    private readonly forged: (rq: ConsoleRequest, s: ConsoleSession) => void,
  ) {}

  async one(rq: ConsoleRequest, s: ConsoleSession, id: string): Promise<void> {
    const found = await this.approvals.get(id);
    const decided = found === undefined ? await this.history?.find(id) : undefined;
    sendHtml(rq.response, found === undefined && decided === undefined ? 404 : 200, approvalPage(id, found, decided, this.view(s)));
  }

  /** GET: the confirmation step, for a pending approval this approver may decide. */
  async confirm(rq: ConsoleRequest, s: ConsoleSession, id: string, verdict: Verdict): Promise<void> {
    const view = this.view(s);
    const found = APPROVAL_ID.test(id) ? await this.approvals.get(id) : undefined;
    const refused = found === undefined ? undefined : view.access.refusal(s.principal, found);
    if (found === undefined || found.status !== 'pending' || refused !== undefined) {
      const text = refused ?? (found === undefined ? `Approval ${id} was not found or has expired.` : `Approval ${id} was already decided.`);
      return sendHtml(
        rq.response,
        found === undefined ? 404 : refused !== undefined ? 403 : 409,
        approvalPage(id, found, undefined, view, { kind: 'error', text }),
      );
    }
    sendHtml(rq.response, 200, confirmPage(found, verdict, view));
  }

  /** POST: decides once confirmed; a refused decision is shown on its confirmation page, the reason kept. */
  async decide(rq: ConsoleRequest, s: ConsoleSession, id: string, verdict: Verdict): Promise<void> {
    const form = await readForm(rq.request);
    if (form === undefined || !rq.formAllowed(form, s.csrf)) return this.forged(rq, s);
    const reason = form.get('reason') ?? '';
    const view = this.view(s);
    if (form.get('confirmed') !== 'yes') {
      const found = APPROVAL_ID.test(id) ? await this.approvals.get(id) : undefined;
      if (found?.status === 'pending' && view.access.refusal(s.principal, found) === undefined)
        return sendHtml(rq.response, 200, confirmPage(found, verdict, view, reason));
    }
    const outcome = await this.decisions.decide(s.principal, id, verdict, reason);
    if (outcome.ok) return redirect(rq.response, `/console?notice=${outcome.approval.status}&id=${outcome.approval.id}`);
    const found = outcome.status === 400 ? await this.approvals.get(id) : undefined;
    const banner = { kind: 'error' as const, text: outcome.message };
    sendHtml(
      rq.response,
      outcome.status,
      found ? confirmPage(found, verdict, view, reason, banner) : approvalPage(id, await this.approvals.get(id), undefined, view, banner),
    );
  }

  async bulkConfirm(rq: ConsoleRequest, s: ConsoleSession): Promise<void> {
    const subject = rq.query.get('subject') ?? '';
    sendHtml(rq.response, 200, bulkRejectPage(subject, await this.pendingOf(subject), this.view(s)));
  }

  async bulkReject(rq: ConsoleRequest, s: ConsoleSession): Promise<void> {
    const form = await readForm(rq.request);
    if (form === undefined || !rq.formAllowed(form, s.csrf)) return this.forged(rq, s);
    const subject = form.get('subject') ?? '';
    const reason = form.get('reason') ?? '';
    const view = this.view(s);
    if (form.get('confirmed') !== 'yes') return sendHtml(rq.response, 200, bulkRejectPage(subject, await this.pendingOf(subject), view, reason));
    const outcome = await this.decisions.rejectSeveral(s.principal, subject, form.getAll('id'), reason);
    if (!outcome.ok) {
      return sendHtml(
        rq.response,
        outcome.status,
        bulkRejectPage(subject, await this.pendingOf(subject), view, reason, { kind: 'error', text: outcome.message }),
      );
    }
    const rejected = outcome.outcomes.filter((o) => o.ok).length;
    const failed = outcome.outcomes.flatMap((o) => (o.ok ? [] : [o.message]));
    if (failed.length === 0) return redirect(rq.response, `/console?notice=rejected-several&n=${rejected}&subject=${encodeURIComponent(subject)}`);
    const text = `Rejected ${rejected} of ${subject}'s held calls; ${failed.length} not: ${failed.join(' ')}`;
    sendHtml(rq.response, 409, bulkRejectPage(subject, await this.pendingOf(subject), view, reason, { kind: 'error', text }));
  }

  private async pendingOf(subject: string) {
    return (await this.approvals.list()).filter((a) => a.status === 'pending' && a.subject === subject);
  }
}
