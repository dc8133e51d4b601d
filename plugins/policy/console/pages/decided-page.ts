import type { DecidedCall, HistoryPage } from '../decision-history.js';
import { html, type Html } from '../../../../core/text/html.js';
import { pageBody, shortTime, type Banner, type Viewer, type PageBody } from './page-parts.js';

/**
 * The decided tab: every approver's decision in the audit log, newest first, paged, with who decided, when,
 * why, and what came of it (the run a grant let through and how it ended, or the retries a rejection refused).
 */
export function decidedPage(viewer: Viewer, data: { path?: string; history?: HistoryPage; now: number }, banner?: Banner): PageBody {
  if (data.path === undefined || data.history === undefined) {
    return pageBody(
      'Decided',
      html`<h1>Decided</h1><p class="empty">This server keeps no audit log, so there is no history of decisions: set MCP_AUDIT_LOG to record every call and every decision.</p>`,
      { banner },
    );
  }
  const h = data.history;
  const body = html`<h1>Decided</h1>
<p class="lead">Every decision in the audit log (<code>${data.path}</code> and every writer's chain of it), newest first: ${h.total} in all.</p>
${
  h.entries.length === 0
    ? html`<p class="empty">Nobody has decided a held call yet.</p>`
    : html`<table class="stack decided"><thead><tr><th>Decided</th><th>Call</th><th>Asked by</th><th>Decision</th><th>Reason</th><th>Outcome</th></tr></thead><tbody>
${h.entries.map((e) => row(e, data.now))}
</tbody></table>`
}
${h.pages > 1 ? pager(h) : ''}`;
  return pageBody('Decided', body, { banner });
}

function row(e: DecidedCall, now: number): Html {
  return html`<tr id="${e.approvalId}"><td data-label="Decided"><time datetime="${e.time}">${shortTime(e.time)}</time></td><td data-label="Call">${call(e)}</td><td data-label="Asked by">${e.requestedBy}</td><td data-label="Decision"><span class="status ${e.status}">${e.status}</span> by <strong>${e.by}</strong> <span class="via">via ${e.via}</span></td><td data-label="Reason">${e.reason ?? ''}</td><td data-label="Outcome" class="outcome-cell">${outcome(e, now)}</td></tr>`;
}

/** One decision, as the approval page shows it once the approval itself is gone from the store. */
export function decidedSummary(e: DecidedCall): Html {
  return html`<article class="approval decided-one" id="${e.approvalId}"><header><h3>${call(e)}</h3><span class="status ${e.status}">${e.status}</span></header>
<dl><dt>Asked by</dt><dd>${e.requestedBy}</dd><dt>Decided</dt><dd>${e.status} by <strong>${e.by}</strong> at <time datetime="${e.time}">${shortTime(e.time)}</time>${e.reason ? html`: ${e.reason}` : ''}</dd>
<dt>Outcome</dt><dd>${outcome(e, Date.now())}</dd></dl></article>`;
}

function call(e: DecidedCall): Html {
  return html`<code>${e.tool}</code> ${e.request ? html`<span class="method">${e.request.method}</span> <code>${e.request.path}</code>` : ''} <a class="muted" href="/console/approvals/${e.approvalId}">${e.approvalId}</a>`;
}

/** What came of the decision: a grant's run, a grant that lapsed unused, or a rejection's refused retries. */
function outcome(e: DecidedCall, now: number): Html {
  if (e.status === 'granted') {
    if (e.run !== undefined)
      return html`<span class="outcome ${e.run.outcome === 'ok' ? 'ok' : 'error'}">${e.run.outcome === 'ok' ? 'ran' : `ran, failed: ${e.run.outcome}`}</span> <time datetime="${e.run.time}">${shortTime(e.run.time)}</time>`;
    if (e.expiresAt !== undefined && Date.parse(e.expiresAt) <= now) return html`<span class="outcome expired">lapsed unused</span>`;
    return html`<span class="outcome waiting">not run yet</span>`;
  }
  return e.refusedRetries === 0
    ? html`<span class="outcome waiting">no retry yet</span>`
    : html`<span class="outcome denied">${e.refusedRetries} ${e.refusedRetries === 1 ? 'retry' : 'retries'} refused</span>`;
}

function pager(h: HistoryPage): Html {
  return html`<nav class="pager" aria-label="Pages">${h.page > 1 ? html`<a rel="prev" href="/console/decided?page=${h.page - 1}">Newer</a>` : ''} <span>Page ${h.page} of ${h.pages}</span> ${h.page < h.pages ? html`<a rel="next" href="/console/decided?page=${h.page + 1}">Older</a>` : ''}</nav>`;
}
