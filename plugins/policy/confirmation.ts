import type { Call } from '../../core/plugin/call.js';
import { systemClock, type Clock } from '../../core/store/key-value-store.js';
import type { CallFacts } from './engine/call-facts.js';
import type { Decision } from './engine/policy-engine.js';
import { describedCall } from './refusal.js';

/** The `_meta` key of a call the person confirmed: the decision, with their answer. */
export const CONFIRMATION_META_KEY = 'mcp-devtools/confirmation';

/** Added to the reason of a `confirm` decision held instead, so the caller and the approver know why. */
const CANNOT_ASK = 'This client cannot ask the person to confirm (no form-mode elicitation on this connection), so an approver decides instead.';

/**
 * A `confirm` decision settled: asked of the person through the client (form-mode elicitation), their answer
 * recorded in the decision; or, when the client cannot be asked, turned into `approval_required`, so that a
 * client without elicitation gets exactly what a `hold` rule gives (nothing weakens). A question the client
 * fails to carry (an error, a closed connection) counts as cancelled.
 */
export async function settleConfirmation(decision: Decision, call: Call, facts: CallFacts, clock: Clock = systemClock): Promise<Decision> {
  if (call.askToConfirm === undefined) return { ...decision, effect: 'approval_required', reason: `${decision.reason} ${CANNOT_ASK}` };
  const answer = await call.askToConfirm({ message: questionOf(decision, facts) }).catch(() => 'cancel' as const);
  return { ...decision, confirmation: { answer, by: call.principal.subject, at: new Date(clock.now()).toISOString() } };
}

/** Whether the person said yes to this decision's question. */
export function confirmed(decision: Decision): boolean {
  return decision.effect === 'confirm' && decision.confirmation?.answer === 'accept';
}

/** The policy's reason (with the session's flow facts), then the call itself, as a yes-or-no question. */
function questionOf(decision: Decision, facts: CallFacts): string {
  return `${decision.reason}\nLet ${describedCall(facts)} run for ${facts.subject}?`;
}
