import type { ApprovalRecord } from '../../../plugins/policy/index.js';
import type { ConsoleAccess } from '../access.js';
import type { ArgumentValues } from '../argument-view.js';
import { MAX_REASON_CHARS } from '../decisions.js';
import { html, type Html } from '../html.js';
import { csrfField, page, shortTime, timeLeft, type Banner, type Viewer } from './layout.js';

export interface ApprovalsView {
  viewer: Viewer;
  principal: { subject: string; groups: readonly string[]; via: string };
  access: ConsoleAccess;
  values: ArgumentValues;
  /** The vendor of each tool (its upstream's, or its plugin's name). */
  vendorOf: (tool: string) => string;
  now: number;
}

/** The pending approvals page, with the decisions of the last TTL below them. */
export function approvalsPage(all: readonly ApprovalRecord[], view: ApprovalsView, banner?: Banner): Html {
  const decided = all.filter((a) => a.status !== 'pending').sort((a, b) => (b.decidedAt ?? '').localeCompare(a.decidedAt ?? ''));
  const groups = view.access.approverGroups;
  const who = view.viewer.approver
    ? html`You may grant or reject calls of others; a grant lets the caller's next identical call run once.`
    : groups.length === 0
      ? html`Nobody decides in this console (MCP_APPROVER_GROUPS is empty); you can see what is waiting.`
      : html`You can see what is waiting; members of ${groups.join(', ')} decide.`;
  const body = html`<h1>Pending approvals</h1>
<p class="lead">${who}</p>
<section id="pending" class="cards" data-live="/console/approvals/live" aria-live="polite">${pendingCards(all, view)}</section>
<h2>Decided</h2>
${
  decided.length === 0
    ? html`<p class="empty">No decisions within the approvals' lifetime.</p>`
    : html`<table class="stack"><thead><tr><th>Decided</th><th>Call</th><th>Asked by</th><th>Decision</th><th>Reason</th></tr></thead><tbody>
${decided.map(decidedRow)}
</tbody></table>`
}`;
  return page('Pending approvals', body, { viewer: view.viewer, section: 'approvals', banner });
}

function decidedRow(a: ApprovalRecord): Html {
  const call = html`<code>${a.tool}</code> ${a.request ? html`<span class="method">${a.request.method}</span> <code>${a.request.path}</code>` : ''}`;
  const status = html`<span class="status ${a.status}">${a.status === 'used' ? 'granted, used' : a.status}</span> by ${a.decidedBy}`;
  return html`<tr><td data-label="Decided"><time datetime="${a.decidedAt}">${shortTime(a.decidedAt)}</time></td><td data-label="Call">${call}</td><td data-label="Asked by">${a.subject}</td><td data-label="Decision">${status}</td><td data-label="Reason">${a.decisionReason ?? ''}</td></tr>`;
}

/** The cards of the pending list: the page's first paint, and what the script fetches to refresh it. */
export function pendingCards(all: readonly ApprovalRecord[], view: ApprovalsView): Html {
  const pending = all.filter((a) => a.status === 'pending');
  if (pending.length === 0) return html`<p class="empty">Nothing is waiting for approval.</p>`;
  return html`${pending.map((a) => card(a, view))}`;
}

function card(a: ApprovalRecord, view: ApprovalsView): Html {
  const refusal = view.access.refusal(view.principal, a);
  const lines = view.values.lines(a.arguments);
  return html`<article class="approval" id="${a.id}" data-id="${a.id}">
<header><h3><code>${a.tool}</code> <span class="vendor">${view.vendorOf(a.tool)}</span></h3><span class="time-left" data-expires="${a.expiresAt}">${timeLeft(a.expiresAt, view.now)}</span></header>
${a.request ? html`<p class="request"><span class="method">${a.request.method}</span> <code>${a.request.path}</code></p>` : ''}
<dl>
<dt>Asked by</dt><dd><strong>${a.subject}</strong>${a.groups.length > 0 ? html` <span class="groups">${a.groups.join(', ')}</span>` : ''} <span class="via">via ${a.via}</span></dd>
<dt>Held by</dt><dd>${a.ruleId === null ? 'the policy' : html`rule <code>${a.ruleId}</code>`}: ${a.reason}</dd>
<dt>Asked at</dt><dd><time datetime="${a.createdAt}">${shortTime(a.createdAt)}</time> <span class="muted">(${a.id})</span></dd>
</dl>
<div class="args"><h4>Arguments</h4>${
    'unavailable' in lines
      ? html`<p class="muted">${lines.unavailable}</p>`
      : lines.length === 0
        ? html`<p class="muted">none</p>`
        : html`<ul>${lines.map((l) => html`<li class="d${l.depth}"><span class="key">${l.key}</span> ${l.value ? html`<code class="value">${l.text}</code>` : html`<span class="type">${l.text}</span>`}</li>`)}</ul>`
  }</div>
${refusal === undefined ? actions(a, view.viewer.csrf) : view.viewer.approver ? html`<p class="own">${refusal}</p>` : ''}
</article>`;
}

function actions(a: ApprovalRecord, csrf: string): Html {
  return html`<div class="actions">
<form method="post" action="/console/approvals/${a.id}/grant" class="grant">${csrfField(csrf)}<button type="submit" class="grant">Grant</button></form>
<form method="post" action="/console/approvals/${a.id}/reject" class="reject">${csrfField(csrf)}<label>Reason for rejecting <textarea name="reason" rows="2" required maxlength="${MAX_REASON_CHARS}" placeholder="Told to the caller"></textarea></label><button type="submit" class="reject">Reject</button></form>
</div>`;
}
