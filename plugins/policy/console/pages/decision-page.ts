import { MAX_REASON_CHARS } from '../../approvals/approval-record.js';
import type { ApprovalRecord } from '../../approvals/approval-store.js';
import type { DecidedCall } from '../decision-history.js';
import type { Verdict } from '../decisions.js';
import { html } from '../../../../core/text/html.js';
import { card, type ApprovalsView } from './approvals-page.js';
import { decidedSummary } from './decided-page.js';
import { csrfField } from '../../../../core/plugin/contributions.js';
import { pageBody, type Banner, type PageBody } from './page-parts.js';

/**
 * One approval, where a webhook event's link leads: the card while it is pending (with its decisions), what was
 * decided once it is (from the store, or from the audit log after the decision's own expiry), or that there is
 * no such approval.
 */
export function approvalPage(id: string, found: ApprovalRecord | undefined, decided: DecidedCall | undefined, view: ApprovalsView, banner?: Banner): PageBody {
  const body =
    found !== undefined
      ? html`<h1>${found.status === 'pending' ? 'Held for approval' : 'Decided'}</h1>${card(found, view, { actions: true })}`
      : decided !== undefined
        ? html`<h1>Decided</h1>${decidedSummary(decided)}`
        : html`<h1>Not found</h1><p class="empty">Approval ${id} was not found: it expired undecided, or there is no such approval. The <a href="/console/decided">Decided</a> tab lists every decision.</p>`;
  return pageBody(`Approval ${id}`, html`${body}<p><a href="/console">All pending approvals</a></p>`, { banner });
}

/**
 * The confirmation step of a decision: the whole card again, the reason (optional for a grant, required for a
 * rejection: the caller is told it), and the button that decides; cancelling decides nothing.
 */
export function confirmPage(a: ApprovalRecord, verdict: Verdict, view: ApprovalsView, reason = '', banner?: Banner): PageBody {
  const grant = verdict === 'grant';
  const title = grant ? 'Grant this call?' : 'Reject this call?';
  const consequence = grant
    ? html`The caller's next identical call (same arguments, under policy <code>${a.policyVersion}</code>) then runs once, as <strong>${a.identity?.credential ?? 'the server'}</strong>${a.identity ? html` in ${a.identity.environment}` : ''}.`
    : html`The caller's retries are refused, with your reason.`;
  const body = html`<h1>${title}</h1>
<p class="lead">${consequence}</p>
${card(a, view, { actions: false })}
<form method="post" action="/console/approvals/${a.id}/${verdict}" class="confirm ${verdict}">${csrfField(view.viewer.csrf)}<input type="hidden" name="confirmed" value="yes">
<label>${grant ? 'Reason (optional)' : 'Reason for rejecting (required)'} <textarea name="reason" rows="3" maxlength="${MAX_REASON_CHARS}"${grant ? '' : html` required`} placeholder="Told to the caller and kept in the audit log">${reason}</textarea></label>
<div class="buttons"><button type="submit" class="${verdict}">${grant ? 'Grant' : 'Reject'}</button> <a href="/console/approvals/${a.id}">Cancel</a></div>
</form>`;
  return pageBody(title, body, { banner });
}

/** The confirmation step of a bulk rejection: every pending call of one caller, each checked, and one reason. */
export function bulkRejectPage(subject: string, pending: readonly ApprovalRecord[], view: ApprovalsView, reason = '', banner?: Banner): PageBody {
  const body = html`<h1>Reject ${subject}'s held calls?</h1>
<p class="lead">Each call you leave checked is rejected with the reason below, which ${subject}'s retries are told. One an approver decides meanwhile is left as they decided it.</p>
${
  pending.length === 0
    ? html`<p class="empty">${subject} has no pending approvals.</p>`
    : html`<form method="post" action="/console/approvals/bulk-reject" class="confirm reject bulk">${csrfField(view.viewer.csrf)}<input type="hidden" name="confirmed" value="yes"><input type="hidden" name="subject" value="${subject}">
<ul class="picks">${pending.map(
        (a) =>
          html`<li><label class="pick"><input type="checkbox" name="id" value="${a.id}" checked> <code>${a.tool}</code> ${a.request ? html`<span class="method">${a.request.method}</span> <code>${a.request.path}</code>` : ''} <span class="muted">${a.id}</span></label></li>`,
      )}</ul>
<label>Reason for rejecting (required) <textarea name="reason" rows="3" maxlength="${MAX_REASON_CHARS}" required placeholder="Told to the caller and kept in the audit log">${reason}</textarea></label>
<div class="buttons"><button type="submit" class="reject">Reject the checked calls</button> <a href="/console">Cancel</a></div>
</form>`
}`;
  return pageBody(`Reject ${subject}'s held calls`, body, { banner });
}
