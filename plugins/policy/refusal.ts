import { ToolError } from '../../core/errors/tool-error.js';
import type { CallFacts } from './engine/call-facts.js';
import type { Decision } from './engine/policy-engine.js';
import type { ConsoleLink } from './console-link.js';

/** A request as refusals name it: `POST /graphql` and, for a GraphQL operation, what it asks for. */
function describedRequest(facts: CallFacts): string {
  const request = `${facts.method} ${facts.path}`;
  const op = facts.graphql;
  return op === null || op === undefined ? request : `${request}: ${op.operation} ${op.name === null ? '' : `${op.name} `}{ ${op.fields.join(', ')} }`;
}

/** `jira_get (GET /rest/api/3/issue/PLAT-1)`, or the tool alone for a call without a request. */
export function describedCall(facts: CallFacts): string {
  return facts.method !== null && facts.path !== null ? `${facts.tool} (${describedRequest(facts)})` : facts.tool;
}

/**
 * The error result of a refused or held call: text that says what was refused and why (and, for an
 * approval, what to do next), with `_meta.code` and `_meta.decision` for programs.
 */
export function refusal(decision: Decision, facts: CallFacts, console?: ConsoleLink): ToolError {
  const what = describedCall(facts);
  if (decision.effect === 'approval_required') {
    const id = decision.approvalId ?? '';
    const page = console?.approvalPage(id);
    const where = page === undefined ? `(mcp-devtools approvals grant ${id})` : `in the console ${page} (or with mcp-devtools approvals grant ${id})`;
    const message = [
      `${what} needs an approver's grant before it runs. ${decision.reason}`,
      `Approval ${id} is pending until ${decision.expiresAt}. Ask an approver to grant it ${where}, then retry the same call with the same arguments; it will then run once.`,
    ].join('\n');
    return new ToolError('approval_required', message, { meta: { code: 'approval_required', decision } });
  }
  if (decision.effect === 'confirm') {
    // The person was asked and did not say yes: refused as a deny is, in their words.
    const answered = decision.confirmation?.answer === 'decline' ? 'declined' : 'did not answer (cancelled)';
    const message = `${what} was not run: the person was asked to confirm it and ${answered}, so nothing was sent. ${decision.reason} (rule ${decision.ruleId}; policy ${decision.policyVersion})`;
    return new ToolError('policy_denied', message, { meta: { code: 'policy_denied', decision } });
  }
  const rule = decision.ruleId === null ? 'no rule allows it' : `rule ${decision.ruleId}`;
  const message = `The policy refused ${what} for ${facts.subject}: ${decision.reason} (${rule}; policy ${decision.policyVersion})`;
  return new ToolError('policy_denied', message, { meta: { code: 'policy_denied', decision } });
}

/**
 * A call held by a rule while the approvals store (MCP_STORE_URL) cannot be reached: refused, never allowed,
 * with its own code so that a caller knows it is the store, not the policy, and that a retry can succeed.
 */
export function storeUnavailable(decision: Decision, facts: CallFacts): ToolError {
  const what = describedCall(facts);
  const message = `${what} needs an approval, and the approvals store (MCP_STORE_URL) cannot be reached, so the call was refused and nothing was sent. Retry it shortly; a grant already given still holds.`;
  return new ToolError('store_unavailable', message, { meta: { code: 'store_unavailable', decision } });
}

/**
 * A call whose `confirm` rule was just asked of the person through `input_required` (2026-07-28): nothing ran.
 * The MCP adapter answers `input_required` in its place, so a client sees this only in the audit record.
 */
export function confirmationAsked(decision: Decision, facts: CallFacts): ToolError {
  const message = `${describedCall(facts)} waits for the person to confirm it: the client was asked, and the call runs when it is retried with their yes. ${decision.reason}`;
  return new ToolError('confirmation_required', message, { meta: { code: 'confirmation_required', decision } });
}

/** A `confirm` rule's question could not be asked or its answer checked, the store being down: refused, never run. */
export function confirmationStoreUnavailable(decision: Decision, facts: CallFacts): ToolError {
  const what = describedCall(facts);
  const message = `${what} needs the person's confirmation, and the shared store (MCP_STORE_URL) that keeps the question cannot be reached, so the call was refused and nothing was sent. Retry it shortly.`;
  const denied: Decision = {
    effect: 'deny',
    ruleId: decision.ruleId,
    reason: 'The confirmation store could not be reached, so the call is denied. Try again later.',
    policyVersion: decision.policyVersion,
  };
  return new ToolError('store_unavailable', message, { meta: { code: 'store_unavailable', decision: denied } });
}

/**
 * A redirect hop (of the route or of a further request) to a path the policy would not have allowed: refused
 * as the call itself would have been had it named that path, naming the request that was redirected (an
 * approval cannot be asked for mid-call, so it is a refusal too, unless a grant of the call covered it).
 */
export function redirectRefusal(decision: Decision, facts: CallFacts, from: { method: string; path: string }, target: string): ToolError {
  const rule = decision.ruleId === null ? 'no rule allows it' : `rule ${decision.ruleId}`;
  const held = decision.effect === 'approval_required' ? " It needs an approver's grant: call that path itself." : '';
  const message = `${facts.tool} (${from.method} ${from.path}) was redirected to ${target}, which the policy refuses for ${facts.subject}: ${decision.reason}${held} (${rule}; policy ${decision.policyVersion})`;
  return new ToolError('policy_denied', message, { meta: { code: 'policy_denied', decision: { ...decision, effect: 'deny' } } });
}

/**
 * A request a handler sent beyond its route (a second page, a follow-up read) that the policy would not allow:
 * refused, naming the plugin and what the tool declared. An approval cannot be asked for in the middle of a
 * call, so a request held for one is refused too, naming the rule (unless a grant of the call covered it).
 */
export function furtherRefusal(decision: Decision, call: CallFacts, further: CallFacts, plugin: string): ToolError {
  const rule = decision.ruleId === null ? 'no rule allows it' : `rule ${decision.ruleId}`;
  const declared = call.method !== null && call.path !== null ? ` (which declares ${call.method} ${call.path})` : '';
  const held =
    decision.effect === 'approval_required'
      ? " It needs an approver's grant, which cannot be asked for in the middle of a call; use a tool whose own request is that one."
      : '';
  const message = `The policy refused ${describedRequest(further)}, a further request of the ${plugin} plugin's ${call.tool}${declared}, for ${call.subject}: ${decision.reason}${held} (${rule}; policy ${decision.policyVersion})`;
  return new ToolError('policy_denied', message, { meta: { code: 'policy_denied', decision: { ...decision, effect: 'deny' } } });
}
