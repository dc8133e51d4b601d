import type { Logger } from '../../core/logging/logger.js';
import type { Call, ConfirmByRetry } from '../../core/plugin/call.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { systemClock, type Clock } from '../../core/store/key-value-store.js';
import type { ConfirmationStates } from './confirmation-states.js';
import type { CallFacts } from './engine/call-facts.js';
import type { Decision } from './engine/policy-engine.js';
import { describedCall } from './refusal.js';
import { withoutTokens } from './approvals/secret-shaped.js';

/** The `_meta` key of a call the person confirmed: the decision, with their answer. */
export const CONFIRMATION_META_KEY = 'mcp-devtools/confirmation';

/** Added to the reason of a `confirm` decision held instead, so the caller and the approver know why. */
const CANNOT_ASK = 'This client cannot ask the person to confirm (no form-mode elicitation on this connection), so an approver decides instead.';

/** What asking needs beyond the call: the states of questions asked across a retry, and where to say why an answer was not taken. */
export interface Asking {
  states: ConfirmationStates;
  logger: Logger;
  /** The server's scrubber: the question is cleaned as an approval's preview is (it travels to the client). */
  scrub: Scrub;
  clock?: Clock;
}

/**
 * A `confirm` decision settled: asked of the person through the client, their answer recorded in the decision;
 * or, when the client cannot be asked, turned into `approval_required`, so that a client without elicitation gets
 * exactly what a `hold` rule gives (nothing weakens).
 *
 * - Mid-call (a 2025-era connection, `elicitation/create`): a question the client fails to carry (an error, a
 *   closed connection) counts as cancelled.
 * - Across a retry (2026-07-28, `input_required`): the first round asks and comes back without a confirmation
 *   (`asked`); the retry's answer counts only with the state minted for exactly this question.
 */
export async function settleConfirmation(decision: Decision, call: Call, facts: CallFacts, asking: Asking): Promise<Decision> {
  const clock = asking.clock ?? systemClock;
  const answeredBy = (answer: 'accept' | 'decline' | 'cancel'): Decision => ({
    ...decision,
    confirmation: { answer, by: call.principal.subject, at: new Date(clock.now()).toISOString() },
  });
  if (call.askToConfirm !== undefined)
    return answeredBy(await call.askToConfirm({ message: questionOf(decision, facts, asking.scrub) }).catch(() => 'cancel' as const));
  if (call.confirmByRetry !== undefined) {
    const answer = await answerAcrossRetry(call.confirmByRetry, decision, call, facts, asking);
    return answer === undefined ? decision : answeredBy(answer);
  }
  return { ...decision, effect: 'approval_required', reason: `${decision.reason} ${CANNOT_ASK}` };
}

/**
 * The person's answer a retried call carries, once its state proves it answers this very question; otherwise
 * (a first round, or a state missing, forged, expired, used or minted for another call) the question is asked
 * anew and undefined comes back: the call ends with `input_required`, and never runs on such an answer.
 */
async function answerAcrossRetry(
  channel: ConfirmByRetry,
  decision: Decision,
  call: Call,
  facts: CallFacts,
  asking: Asking,
): Promise<'accept' | 'decline' | 'cancel' | undefined> {
  const subject = { principal: call.principal, tool: facts.tool, args: call.args, ruleId: decision.ruleId, policyVersion: decision.policyVersion };
  if (channel.answered !== undefined) {
    const redeemed = await asking.states.redeem(channel.answered.state, subject);
    if (redeemed === 'valid') return channel.answered.action;
    asking.logger.warn(
      { tool: facts.tool, principal: call.principal.subject, requestState: redeemed },
      'a confirmation answer came back without a valid requestState for this call; it is not taken, and the person is asked again',
    );
  }
  channel.ask({ message: questionOf(decision, facts, asking.scrub), state: await asking.states.mint(subject) });
  return undefined;
}

/** Whether the person said yes to this decision's question. */
export function confirmed(decision: Decision): boolean {
  return decision.effect === 'confirm' && decision.confirmation?.answer === 'accept';
}

/** Whether this decision's question was just asked across a retry (2026-07-28), the call ending with `input_required`. */
export function asked(decision: Decision): boolean {
  return decision.effect === 'confirm' && decision.confirmation === undefined;
}

/**
 * The policy's reason (with the session's flow facts), then the call itself, as a yes-or-no question. It names
 * the tool and its request, never the arguments' values; what could still be a secret (a configured one, a
 * token-shaped path segment) is hidden as in an approval's preview.
 */
function questionOf(decision: Decision, facts: CallFacts, scrub: Scrub): string {
  return withoutTokens(scrub(`${decision.reason}\nLet ${describedCall(facts)} run for ${facts.subject}?`));
}
