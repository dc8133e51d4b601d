import type { AuditVerification } from '../../audit/verify-audit-log.js';
import { OUTCOMES, outcomeOf, type ActivityFilter, type WrittenRecord } from '../audit-view.js';
import { html, type Html } from '../../../../core/text/html.js';
import { pageBody, shortTime, type Viewer, type PageBody } from './page-parts.js';

export interface ActivityData {
  /** Where the log is, or undefined without MCP_AUDIT_LOG. */
  path?: string;
  records: WrittenRecord[];
  scanned: number;
  verification?: AuditVerification;
  /** Principals and tools seen in the scanned records, for the filter's suggestions. */
  principals: string[];
  tools: string[];
}

/** Recent activity from every writer's chain of the audit log, filtered, with whether each hash chain verifies. */
export function activityPage(viewer: Viewer, filter: ActivityFilter, data: ActivityData): PageBody {
  if (data.path === undefined) {
    return pageBody(
      'Recent activity',
      html`<h1>Recent activity</h1><p class="empty">This server keeps no audit log: set MCP_AUDIT_LOG to record every call and every decision.</p>`,
    );
  }
  const body = html`<h1>Recent activity</h1>
${chainStatus(data.path, data.verification!)}
<form method="get" action="/console/activity" class="filters">
<label>Principal <input name="principal" value="${filter.principal}" list="principals" autocomplete="off"></label>
<datalist id="principals">${data.principals.map((p) => html`<option value="${p}">`)}</datalist>
<label>Tool <select name="tool"><option value="">any</option>${data.tools.map((t) => html`<option${t === filter.tool ? html` selected` : ''}>${t}</option>`)}</select></label>
<label>Outcome <select name="outcome"><option value="">any</option>${OUTCOMES.map((o) => html`<option${o === filter.outcome ? html` selected` : ''}>${o}</option>`)}</select></label>
<button type="submit">Filter</button> <a href="/console/activity">Clear</a>
</form>
<p class="muted">${data.records.length === 0 ? 'No record matches.' : `The newest ${data.records.length} matching of the last ${data.scanned} records, newest first.`}</p>
${
  data.records.length === 0
    ? ''
    : html`<table class="stack activity"><thead><tr><th>#</th><th>Time</th><th>Principal</th><th>Tool</th><th>Decision</th><th>Outcome</th></tr></thead><tbody>
${data.records.map(row)}
</tbody></table>`
}`;
  return pageBody('Recent activity', body);
}

function chainStatus(path: string, v: AuditVerification): Html {
  const writers = v.chains.filter((c) => c.writer !== '').map((c) => c.writer);
  const where = writers.length === 0 ? html`<code>${path}</code>` : html`<code>${path}</code> and its writers' chains (${writers.join(', ')})`;
  if (v.ok) {
    return html`<p class="chain ok"><strong>Audit chain verified</strong>: ${v.records} records in ${where}, each sealed to the one before${v.notes.length > 0 ? html` (${v.notes.join(' ')})` : ''}.</p>`;
  }
  return html`<div class="chain broken" role="alert"><p><strong>Audit chain broken</strong>: ${where} was changed after it was written.</p><ul>${v.problems.map((p) => html`<li>${p}</li>`)}</ul></div>`;
}

function row(r: WrittenRecord): Html {
  const outcome = outcomeOf(r);
  const d = r.decision;
  const n = r.notification;
  const decision = r.approval
    ? html`<span class="status ${r.approval.status}">${r.approval.status}</span> ${r.approval.id} for ${r.approval.requestedBy}${r.approval.reason ? html`: ${r.approval.reason}` : ''}`
    : n !== undefined
      ? html`${n.event} to ${n.receiver}, attempt ${n.attempt}: <span class="status ${n.delivered ? 'ok' : 'error'}">${n.delivered ? 'delivered' : 'not delivered'}</span>${n.error ? html` (${n.error})` : ''}${n.retrying ? ', retrying' : ''}`
      : d === null
        ? html`<span class="muted">none</span>`
        : html`${d.effect}${d.ruleId ? html` (<code>${d.ruleId}</code>)` : ''}${d.approvalId ? html` <span class="muted">${d.approvalId}</span>` : ''}`;
  const detail = r.outcome.status === 'error' && outcome === 'error' ? html` <code>${r.outcome.code}</code>` : '';
  // The number is the record's place in its writer's chain: name the writer when it is not the log itself.
  return html`<tr><td data-label="#">${r.writer === '' ? '' : html`<span class="muted">${r.writer}</span> `}${r.seq}</td><td data-label="Time"><time datetime="${r.time}">${shortTime(r.time)}</time></td><td data-label="Principal">${r.principal.subject}</td><td data-label="Tool"><code>${r.tool}</code></td><td data-label="Decision">${decision}</td><td data-label="Outcome"><span class="outcome ${outcome}">${outcome}</span>${detail}</td></tr>`;
}
