import { Compile } from 'typebox/compile';
import { isToolError } from '../../../core/errors/tool-error.js';
import type { KernelView } from '../../../core/plugin/contributions.js';
import { compiledInput, prepareCall } from '../../../core/pipeline/prepare-call.js';
import type { Principal } from '../../../core/identity/principal.js';
import { factsFor, readRequestOf, type CallFacts } from './call-facts.js';
import type { Decision, PolicyEngine, RuleTrace } from './policy-engine.js';
import { CoreSettings } from '../../../core/config/core-settings.js';

export interface Explanation {
  decision: Decision;
  /** MCP_READ_ONLY hides the tool: the server would not offer it at all, whatever the policy says. */
  hiddenByReadOnly: boolean;
  /** `call.path` is the path rules matched (as servers read it); this is the request as it would be sent. */
  call: CallFacts;
  rules: RuleTrace[];
  /** The prepared request: its path in the policy convention (API prefix included) and the URL it goes to. */
  request?: { method: string; path: string; url: string };
}

/** A call the server would refuse before the policy sees it (unknown tool, invalid arguments or path). */
export class UnexplainableCall extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnexplainableCall';
  }
}

/**
 * Decides one call as the server would, without making it: the tool's own validation and route compute the
 * upstream request the policy sees, then every rule is evaluated. `policy explain` and the console's "would
 * this call be allowed?" form both run this, so they cannot disagree with each other or with the server.
 */
export function explainCall(kernel: KernelView, engine: PolicyEngine, toolName: string, args: Record<string, unknown>, principal: Principal): Explanation {
  const tool = kernel.definitions().find((t) => t.spec.name === toolName);
  if (tool === undefined)
    throw new UnexplainableCall(
      `No tool "${toolName}" is loaded. Tools: ${kernel
        .servedDefinitions()
        .map((t) => t.spec.name)
        .sort()
        .join(', ')}.`,
    );
  let call;
  try {
    call = prepareCall(tool, compiledInput(Compile(tool.spec.input), tool.spec.input), args, kernel.settings.of(CoreSettings).MCP_READ_ONLY);
  } catch (error) {
    if (!isToolError(error)) throw error;
    throw new UnexplainableCall(`The server would refuse this call before the policy (${error.code}): ${error.message}`);
  }
  const facts = factsFor(
    tool,
    principal,
    call.args,
    call.prepared?.method ?? call.route?.method,
    call.prepared?.path ?? call.route?.path,
    call.prepared?.graphql,
  );
  // The request as sent is read by the `resources` condition; the explanation shows its method and path alone.
  const { decision, rules } = engine.explain({ ...facts, ...(call.prepared === undefined ? {} : { request: readRequestOf(call.prepared) }) });
  const request = call.prepared === undefined ? undefined : { method: call.prepared.method, path: call.prepared.path, url: call.prepared.url.href };
  const hiddenByReadOnly = kernel.hiddenBy(toolName)?.startsWith('MCP_READ_ONLY') ?? false;
  return { decision, hiddenByReadOnly, call: facts, rules, ...(request === undefined ? {} : { request }) };
}
