import type { Principal } from '../../../core/identity/principal.js';
import type { ConsoleAnswer, ConsolePageRequest } from '../../../core/plugin/contributions.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { DecisionHistory } from './decision-history.js';
import { APPROVAL_ID, type Decisions, type Verdict } from './decisions.js';
import type { ApprovalsView } from './pages/approvals-page.js';
import { approvalPage, bulkRejectPage, confirmPage } from './pages/decision-page.js';
import type { PageBody } from './pages/page-parts.js';

export const ONE = /^\/console\/approvals\/(apr-[0-9a-f]{24})$/;
export const DECIDE = /^\/console\/approvals\/([^/]+)\/(grant|reject)$/;
export const BULK = '/console/approvals/bulk-reject';

const answer = (status: number, page: PageBody): ConsoleAnswer => ({ status, ...page });

/**
 * The pages where approvers decide: one approval (the link of a webhook event), the confirmation step of a
 * grant or a rejection, and of a bulk rejection. A POST decides only once confirmed (`confirmed=yes`, which
 * only the confirmation page sends): any other lands on that page with what was typed kept. The console's frame
 * has checked every POST's CSRF token and origin before it comes here.
 */
export class DecisionRoutes {
  constructor(
    private readonly approvals: ApprovalStore,
    private readonly decisions: Decisions,
    private readonly history: DecisionHistory | undefined,
    private readonly view: (rq: ConsolePageRequest) => ApprovalsView,
  ) {}

  async one(rq: ConsolePageRequest, id: string): Promise<ConsoleAnswer> {
    const found = await this.approvals.get(id);
    const decided = found === undefined ? await this.history?.find(id) : undefined;
    return answer(found === undefined && decided === undefined ? 404 : 200, approvalPage(id, found, decided, this.view(rq)));
  }

  /** GET: the confirmation step, for a pending approval this approver may decide. */
  async confirm(rq: ConsolePageRequest, id: string, verdict: Verdict): Promise<ConsoleAnswer> {
    const view = this.view(rq);
    const found = APPROVAL_ID.test(id) ? await this.approvals.get(id) : undefined;
    const refused = found === undefined ? undefined : view.access.refusal(rq.viewer, found);
    if (found === undefined || found.status !== 'pending' || refused !== undefined) {
      const text = refused ?? (found === undefined ? `Approval ${id} was not found or has expired.` : `Approval ${id} was already decided.`);
      return answer(found === undefined ? 404 : refused !== undefined ? 403 : 409, approvalPage(id, found, undefined, view, { kind: 'error', text }));
    }
    return answer(200, confirmPage(found, verdict, view));
  }

  /** POST: decides once confirmed; a refused decision is shown on its confirmation page, the reason kept. */
  async decide(rq: ConsolePageRequest, form: URLSearchParams, id: string, verdict: Verdict): Promise<ConsoleAnswer> {
    const reason = form.get('reason') ?? '';
    const view = this.view(rq);
    const person = principalOf(rq);
    if (form.get('confirmed') !== 'yes') {
      const found = APPROVAL_ID.test(id) ? await this.approvals.get(id) : undefined;
      if (found?.status === 'pending' && view.access.refusal(person, found) === undefined) return answer(200, confirmPage(found, verdict, view, reason));
    }
    const outcome = await this.decisions.decide(person, id, verdict, reason);
    if (outcome.ok) return { redirect: `/console?notice=${outcome.approval.status}&id=${outcome.approval.id}` };
    const found = outcome.status === 400 ? await this.approvals.get(id) : undefined;
    const banner = { kind: 'error' as const, text: outcome.message };
    return answer(
      outcome.status,
      found ? confirmPage(found, verdict, view, reason, banner) : approvalPage(id, await this.approvals.get(id), undefined, view, banner),
    );
  }

  async bulkConfirm(rq: ConsolePageRequest): Promise<ConsoleAnswer> {
    const subject = rq.query.get('subject') ?? '';
    return answer(200, bulkRejectPage(subject, await this.pendingOf(subject), this.view(rq)));
  }

  async bulkReject(rq: ConsolePageRequest, form: URLSearchParams): Promise<ConsoleAnswer> {
    const subject = form.get('subject') ?? '';
    const reason = form.get('reason') ?? '';
    const view = this.view(rq);
    if (form.get('confirmed') !== 'yes') return answer(200, bulkRejectPage(subject, await this.pendingOf(subject), view, reason));
    const outcome = await this.decisions.rejectSeveral(principalOf(rq), subject, form.getAll('id'), reason);
    if (!outcome.ok) {
      return answer(outcome.status, bulkRejectPage(subject, await this.pendingOf(subject), view, reason, { kind: 'error', text: outcome.message }));
    }
    const rejected = outcome.outcomes.filter((o) => o.ok).length;
    const failed = outcome.outcomes.flatMap((o) => (o.ok ? [] : [o.message]));
    if (failed.length === 0) return { redirect: `/console?notice=rejected-several&n=${rejected}&subject=${encodeURIComponent(subject)}` };
    const text = `Rejected ${rejected} of ${subject}'s held calls; ${failed.length} not: ${failed.join(' ')}`;
    return answer(409, bulkRejectPage(subject, await this.pendingOf(subject), view, reason, { kind: 'error', text }));
  }

  private async pendingOf(subject: string) {
    return (await this.approvals.list()).filter((a) => a.status === 'pending' && a.subject === subject);
  }
}

/** The signed-in person, as the approvals store records who decided (never their session's CSRF token). */
export function principalOf(rq: ConsolePageRequest): Principal {
  return { subject: rq.viewer.subject, groups: rq.viewer.groups, via: rq.viewer.via };
}
