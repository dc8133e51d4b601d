import type { TSchema } from 'typebox';
import { isToolError, ToolError } from '../errors/tool-error.js';
import type { Answer, Call, Produced } from '../plugin/call.js';
import { noProgress, type ToolContext, type UpstreamInterceptor } from '../plugin/tool-context.js';
import type { ObserveRequest, RateLimits, Route } from '../plugin/upstream-types.js';
import type { Scrub } from '../result/secret-scrubber.js';
import { checkedOutput, scrubbedOutput } from './handler-output.js';
import { errorResult } from '../result/tool-result.js';
import { envelopeCheck } from './envelope-check.js';
import { prepareCall, type CompiledInput } from './prepare-call.js';
import { furtherRequestGate } from './request-gate.js';
import type { Contribution, HandlerStage } from './stage-chain.js';

export interface CoreStageDeps {
  /** A tool's compiled input schema, and whether it declares defaults (decided once per tool). */
  inputFor(tool: string): CompiledInput;
  /** Told of each call once its arguments are validated and its request prepared (the call's log line). */
  validated?(call: Call): void;
  /** The interceptors of one call (the kernel wraps the tool's own to observe the call). */
  interceptorsFor(call: Call): readonly UpstreamInterceptor[];
  /** The observer of each request one call puts on the network (its timings and spans). */
  observeRequestFor?(call: Call): ObserveRequest;
  /** The rate-limit governor every call's upstream requests pass (absent: MCP_RATE_LIMIT_GOVERNOR=false). */
  rateLimits?: RateLimits;
  /** Replaces configured secret values (in every form they travel in): a secret never reaches a caller. */
  scrub: Scrub;
  /**
   * The most nodes a handler's value may have, counted as rendering walks it (shared parts each time they
   * appear): what the largest response body could hold (MCP_MAX_RESPONSE_BYTES; a node takes a byte or more).
   */
  maxValueNodes: number;
  /** MCP_READ_ONLY: a route that is not a GET is refused before policy (the gate does the same for every other request). */
  readOnlyServer: boolean;
  /** How a result of one call names another tool to its caller (ToolContext.adviseTool). */
  adviseFor?(call: Call): (tool: string) => Promise<string>;
}

/** The stages the kernel itself contributes: the result envelope, argument validation and the envelope check. */
export function coreStages(deps: CoreStageDeps): Contribution[] {
  return [
    { stage: 'envelope', plugin: 'kernel', name: 'result-envelope', run: (call, next) => envelope(call, next, deps) },
    { stage: 'validate', plugin: 'kernel', name: 'input-schema', run: (call, next) => validate(call, next, deps) },
    envelopeCheck(),
  ];
}

/** The outermost step of every call: whatever happens inside, the call ends with a result, never a throw. */
async function envelope(call: Call, next: (call: Call) => Promise<Answer>, deps: CoreStageDeps): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await next(call);
  } catch (thrown) {
    const error = asToolError(thrown, call);
    answer = { result: errorResult(error, call.meta, deps.scrub), errorCode: error.code };
  }
  // The last net: everything was scrubbed before it was shaped or cut, so this finds nothing on its own.
  for (const block of answer.result.content) if (block.type === 'text') block.text = deps.scrub(block.text);
  return answer;
}

function asToolError(thrown: unknown, call: Call): ToolError {
  if (isToolError(thrown)) return thrown;
  if (call.signal.aborted) return new ToolError('cancelled', `The call to ${call.tool.spec.name} was cancelled.`);
  // A plugin bug must not take the server down or leak a stack trace into the model's context.
  call.logger.error({ err: thrown, tool: call.tool.spec.name, plugin: call.tool.plugin }, 'tool handler failed');
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return new ToolError('tool_failed', `The ${call.tool.plugin} plugin failed while running ${call.tool.spec.name}: ${reason}`);
}

/** Validated arguments and the one request the call may make, prepared once, for every stage inside. */
function validate(call: Call, next: (call: Call) => Promise<Answer>, deps: CoreStageDeps): Promise<Answer> {
  // Acting as a person, the request is prepared by the binding that sends as them (Atlassian's gateway URL).
  const tool = call.acting?.binding === undefined ? call.tool : { ...call.tool, upstream: call.acting.binding };
  const { args, route, prepared } = prepareCall(tool, deps.inputFor(call.tool.spec.name), call.args, deps.readOnlyServer);
  const validated: Call = { ...call, args, route, prepared };
  deps.validated?.(validated);
  return next(validated);
}

/** The handler stage: the tool's handler with its context, its output scrubbed for every stage after it. */
export function handlerStage(deps: CoreStageDeps): HandlerStage {
  return async (call) => {
    const toolCtx: ToolContext<TSchema, Route | undefined> = {
      toolName: call.tool.spec.name,
      args: call.args,
      principal: call.principal,
      signal: call.signal,
      logger: call.logger,
      route: call.route,
      prepared: call.prepared,
      interceptors: deps.interceptorsFor(call),
      bodyLease: call.bodyLease,
      ...(call.acting === undefined ? {} : { acting: call.acting }),
      requestId: call.requestId,
      observeRequest: deps.observeRequestFor?.(call),
      ...(deps.rateLimits !== undefined && { rateLimits: deps.rateLimits }),
      gate: furtherRequestGate(call, deps.readOnlyServer),
      time: (step, micros) => call.time(step, micros),
      progress: call.progress ?? noProgress,
      ...(call.tool.spec.graphql?.partialData === true && { graphqlPartialData: true }),
      ...(deps.adviseFor !== undefined && { adviseTool: deps.adviseFor(call) }),
    };
    const output = checkedOutput(await call.tool.handler(toolCtx));
    // Scrubbed before projection, rendering and cutting: no jq expression sees a secret (`reverse(auth)`,
    // `starts_with(auth, 'ghp_a')` as an oracle), and no cut leaves the head of one behind.
    const scrubbed = scrubbedOutput(output, deps.scrub, deps.maxValueNodes);
    return { output: scrubbed, value: scrubbed.value } satisfies Produced;
  };
}
