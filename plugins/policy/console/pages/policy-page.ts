import type { ConditionsSpec } from '../../document/policy-document.js';
import type { PolicyEngine } from '../../engine/policy-engine.js';
import type { Explanation } from '../../engine/explain-call.js';
import { html, type Html } from '../../../../core/text/html.js';
import { csrfField } from '../../../../core/plugin/contributions.js';
import { pageBody, type Viewer, type PageBody } from './page-parts.js';

export interface ExplainForm {
  tool: string;
  args: string;
  subject: string;
  groups: string;
}

export interface PolicyData {
  path?: string;
  engine?: PolicyEngine;
  tools: string[];
  form: ExplainForm;
  /** The explanation of the form's call, or why it could not be explained. */
  result?: Explanation | { problem: string };
}

/** The policy in force, rule by rule, and the "would this call be allowed?" form that runs policy explain. */
export function policyPage(viewer: Viewer, data: PolicyData): PageBody {
  if (data.engine === undefined) {
    return pageBody(
      'Policy',
      html`<h1>Policy in force</h1><p class="empty">This server has no policy (MCP_POLICY_FILE is empty): every call runs, nothing is held for approval.</p>`,
    );
  }
  const rules = data.engine.policy.document.rules;
  const body = html`<h1>Policy in force</h1>
<p class="lead"><code>${data.path}</code>, version <code>${data.engine.version}</code>, ${rules.length} rules. Deny beats approval_required, which beats allow, wherever the rules stand; what no rule allows is denied.</p>
<table class="stack rules"><thead><tr><th>Line</th><th>Rule</th><th>Effect</th><th>Applies when</th><th>Except when</th><th>Reason</th></tr></thead><tbody>
${rules.map((r) => html`<tr><td data-label="Line">${data.engine!.policy.ruleLines.get(r.id) ?? ''}</td><td data-label="Rule"><code>${r.id}</code></td><td data-label="Effect"><span class="effect ${r.effect}">${r.effect}</span></td><td data-label="Applies">${conditions(r.match)}</td><td data-label="Except">${r.except ? conditions(r.except) : ''}</td><td data-label="Reason">${r.reason ?? ''}</td></tr>`)}
</tbody></table>
<h2 id="explain">Would this call be allowed?</h2>
<form method="post" action="/console/policy/explain#explain" class="explain">${csrfField(viewer.csrf)}
<label>Tool <select name="tool" required>${data.tools.map((t) => html`<option${t === data.form.tool ? html` selected` : ''}>${t}</option>`)}</select></label>
<label>Arguments (JSON) <textarea name="args" rows="4" spellcheck="false">${data.form.args}</textarea></label>
<label>Caller <input name="subject" value="${data.form.subject}" required autocomplete="off"></label>
<label>Groups (comma-separated) <input name="groups" value="${data.form.groups}" autocomplete="off"></label>
<button type="submit">Explain</button>
</form>
${data.result === undefined ? '' : 'problem' in data.result ? html`<p class="banner error" role="alert">${data.result.problem}</p>` : explanation(data.result)}`;
  return pageBody('Policy', body);
}

function conditions(spec: ConditionsSpec | undefined): Html {
  const entries = Object.entries(spec ?? {});
  if (entries.length === 0) return html`<span class="muted">every call</span>`;
  return html`<ul class="conditions">${entries.map(([key, value]) => html`<li><span class="key">${key}</span> ${format(value)}</li>`)}</ul>`;
}

function format(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k} = ${Array.isArray(v) ? v.join(' | ') : String(v)}`)
      .join('; ');
  return String(value);
}

function explanation(e: Explanation): Html {
  const d = e.decision;
  const call = e.call;
  return html`<section class="result" aria-live="polite">
<p class="decision ${d.effect}"><strong>${d.effect === 'approval_required' ? 'Held for approval' : d.effect === 'confirm' ? 'Asked of the person (held for approval where their client cannot be asked)' : d.effect === 'allow' ? 'Allowed' : 'Denied'}</strong>${d.ruleId === null ? ' (no rule allows it)' : html` by rule <code>${d.ruleId}</code>`}: ${d.reason}</p>
${e.hiddenByReadOnly ? html`<p class="banner notice">MCP_READ_ONLY=true hides this tool: the server would not offer it at all.</p>` : ''}
<p class="muted">${call.tool}${call.method === null ? '' : ` ${call.method} ${call.path ?? ''}`} (${call.readOnly ? 'read-only' : 'writes'}) by ${call.subject} [${call.groups.join(', ')}], vendor ${call.vendor}${call.identity ? `, credential ${call.identity.credential} at ${call.identity.host} (${call.identity.environment})` : ''}; policy ${d.policyVersion}.</p>
<table class="stack trace"><thead><tr><th>Rule</th><th>Effect</th><th>Applies</th><th>Conditions</th></tr></thead><tbody>
${e.rules.map((r) => html`<tr class="${r.applies ? 'applies' : ''}"><td data-label="Rule"><code>${r.id}</code></td><td data-label="Effect">${r.effect}</td><td data-label="Applies">${r.applies ? 'yes' : 'no'}</td><td data-label="Conditions"><ul class="conditions">${r.conditions.map((c) => html`<li class="${c.holds ? 'holds' : 'fails'}">${c.holds ? 'holds' : 'fails'}: ${c.block} ${c.key} ${c.expected}; the call has ${c.actual}</li>`)}</ul></td></tr>`)}
</tbody></table>
</section>`;
}
