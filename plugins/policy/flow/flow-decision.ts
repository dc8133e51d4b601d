import type { PolicyDocument } from '../document/policy-document.js';
import type { CallFacts } from '../engine/call-facts.js';
import type { Decision } from '../engine/policy-engine.js';

const flowUse = new WeakMap<PolicyDocument, boolean>();

/** Whether some rule of the document has a flow condition (`session` or `target`): only then are facts read. */
export function usesFlow(document: PolicyDocument): boolean {
  let uses = flowUse.get(document);
  if (uses === undefined) {
    uses = document.rules.some((r) => [r.match, r.except].some((c) => c?.session !== undefined || c?.target !== undefined));
    flowUse.set(document, uses);
  }
  return uses;
}

/**
 * A decision by a flow rule, with why in the session's own terms: "this session read untrusted content from
 * acme/site#12 and private content from github:acme/secret; github:acme/site is public". The facts travel with
 * the decision into `_meta`, the audit record and the approval.
 */
export function flowDecision(decision: Decision, document: PolicyDocument, facts: CallFacts): Decision {
  const flow = facts.flow;
  if (flow === undefined || decision.ruleId === null) return decision;
  const rule = document.rules.find((r) => r.id === decision.ruleId);
  if (rule?.match?.session === undefined && rule?.match?.target === undefined) return decision;
  return { ...decision, reason: `${decision.reason} ${flowSentence(facts)}`, flow };
}

export function flowSentence(facts: CallFacts): string {
  const flow = facts.flow!;
  if (flow.storeDown === true) return 'The session store could not be read, so this session is taken to have read untrusted and private content.';
  const read = [
    ...(flow.untrusted === undefined ? [] : [`untrusted content from ${flow.untrusted}`]),
    ...(flow.private === undefined ? [] : [`private content from ${flow.private.replace(/^[^:]+:/, '')}`]),
  ];
  const said = read.length === 0 ? 'This session has read no untrusted or private content' : `This session read ${read.join(' and ')}`;
  const target =
    flow.target === null ? '' : `; ${flow.target.resource.replace(/^[^:]+:/, '')} is ${flow.target.known ? '' : 'taken as '}${flow.target.visibility}`;
  return `${said}${target}.`;
}
