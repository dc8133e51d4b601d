import { actsAs } from '../../../../core/plugin/public-upstream.js';
import type { ApprovalRecord } from '../../approvals/approval-store.js';
import type { ApproverAccess } from '../approver-access.js';
import { argumentRows } from '../argument-view.js';
import { html, type Html } from '../../../../core/text/html.js';
import { pageBody, shortTime, timeLeft, type Banner, type Viewer, type PageBody } from './page-parts.js';

export interface ApprovalsView {
  viewer: Viewer;
  principal: { subject: string; groups: readonly string[]; via: string };
  access: ApproverAccess;
  /** The vendor of each tool (its upstream's, or its plugin's name). */
  vendorOf: (tool: string) => string;
  now: number;
}

/** The pending approvals page; decisions are on the decided tab. */
export function approvalsPage(all: readonly ApprovalRecord[], view: ApprovalsView, banner?: Banner): PageBody {
  const groups = view.access.approverGroups;
  const who = view.viewer.approver
    ? html`You may grant or reject calls of others; a grant lets the caller's next identical call run once.`
    : groups.length === 0
      ? html`Nobody decides in this console (MCP_APPROVER_GROUPS is empty); you can see what is waiting.`
      : html`You can see what is waiting; members of ${groups.join(', ')} decide.`;
  const body = html`<h1>Pending approvals</h1>
<p class="lead">${who} What was decided, and what came of it, is under <a href="/console/decided">Decided</a>.</p>
<section id="pending" class="cards" data-live="/console/approvals/live" aria-live="polite">${pendingCards(all, view)}</section>`;
  return pageBody('Pending approvals', body, { banner });
}

/** The cards of the pending list: the page's first paint, and what the script fetches to refresh it. */
export function pendingCards(all: readonly ApprovalRecord[], view: ApprovalsView): Html {
  const pending = all.filter((a) => a.status === 'pending');
  if (pending.length === 0) return html`<p class="empty">Nothing is waiting for approval.</p>`;
  const bySubject = new Map<string, number>();
  for (const a of pending) bySubject.set(a.subject, (bySubject.get(a.subject) ?? 0) + 1);
  return html`${pending.map((a) => card(a, view, { actions: true, heldOfSubject: bySubject.get(a.subject)! }))}`;
}

/**
 * One held call: what it will do (tool, method and path, the argument values), who asked, the upstream
 * identity that will act, the rule and the policy version that held it, and how long it can be decided.
 */
export function card(a: ApprovalRecord, view: ApprovalsView, options: { actions: boolean; heldOfSubject?: number }): Html {
  const refusal = view.access.refusal(view.principal, a);
  const rows = argumentRows(a.arguments);
  const id = a.identity;
  return html`<article class="approval" id="${a.id}" data-id="${a.id}">
<header><h3><code>${a.tool}</code> <span class="vendor">${view.vendorOf(a.tool)}</span></h3>${
    a.status === 'pending'
      ? html`<span class="time-left" data-expires="${a.expiresAt}">${timeLeft(a.expiresAt, view.now)}</span>`
      : html`<span class="status ${a.status}">${a.status === 'used' ? 'granted, used' : a.status}</span>`
  }</header>
${a.request ? html`<p class="request"><span class="method">${a.request.method}</span> <code>${a.request.path}</code></p>` : ''}
<div class="args"><h4>Arguments</h4>${
    'unavailable' in rows
      ? html`<p class="muted">${rows.unavailable}</p>`
      : rows.length === 0
        ? html`<p class="muted">none</p>`
        : html`<ul>${rows.map(
            (r) =>
              html`<li data-key="${r.key}"><span class="key">${r.key}</span> ${
                r.redacted
                  ? html`<span class="redacted">redacted</span>`
                  : r.full === undefined
                    ? html`<code class="value">${r.text}</code>`
                    : html`<details class="fold"><summary><code class="value">${r.text}</code> <span class="show-all">show all</span></summary><pre class="value">${r.full}</pre></details>`
              }</li>`,
          )}</ul>`
  }${a.redacted !== undefined && a.redacted.length > 0 ? html`<p class="muted redactions">Hidden from approvers: ${a.redacted.join(', ')}</p>` : ''}${
    a.withheld !== undefined && a.withheld.length > 0 ? html`<p class="muted withheld">Values not sent to webhook receivers: ${a.withheld.join(', ')}</p>` : ''
  }</div>
<dl>
<dt>Asked by</dt><dd><strong>${a.subject}</strong>${a.groups.length > 0 ? html` <span class="groups">${a.groups.join(', ')}</span>` : ''} <span class="via">via ${a.via}</span></dd>
<dt>Acts as</dt><dd class="identity">${
    id?.kind === 'user'
      ? html`<strong>${id.login ?? id.credential}</strong> <span class="muted">${actsAs(id)}, their own linked account, at ${id.host}</span>`
      : id
        ? html`<strong>${id.credential}</strong> <span class="environment env-${id.environment}">${id.environment}</span> <span class="muted">${id.vendor} at ${id.host}</span>`
        : html`<span class="muted">no upstream credential</span>`
  }</dd>
<dt>Held by</dt><dd>${a.ruleId === null ? 'the policy' : html`rule <code>${a.ruleId}</code>`}: ${a.reason}</dd>
<dt>Policy</dt><dd><code class="policy-version">${a.policyVersion}</code></dd>
<dt>Asked at</dt><dd><time datetime="${a.createdAt}">${shortTime(a.createdAt)}</time> <span class="muted">(${a.id})</span></dd>
${a.decidedBy ? html`<dt>Decided</dt><dd>${a.status === 'rejected' ? 'rejected' : 'granted'} by <strong>${a.decidedBy}</strong> at <time datetime="${a.decidedAt}">${shortTime(a.decidedAt)}</time>${a.decisionReason ? html`: ${a.decisionReason}` : ''}</dd>` : ''}
</dl>
${options.actions && a.status === 'pending' ? (refusal === undefined ? actions(a, options.heldOfSubject ?? 1) : view.viewer.approver ? html`<p class="own">${refusal}</p>` : '') : ''}
</article>`;
}

/** Links to the confirmation steps: nothing is decided by one click. */
function actions(a: ApprovalRecord, heldOfSubject: number): Html {
  return html`<div class="actions">
<a class="button grant" href="/console/approvals/${a.id}/grant">Grant…</a>
<a class="button reject" href="/console/approvals/${a.id}/reject">Reject…</a>
${heldOfSubject > 1 ? html`<a class="bulk" href="/console/approvals/bulk-reject?subject=${encodeURIComponent(a.subject)}">Reject all ${heldOfSubject} of ${a.subject}'s held calls…</a>` : ''}
</div>`;
}
