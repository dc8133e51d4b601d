import type { Validator } from 'typebox/compile';
import { isToolError, ToolError } from '../errors/tool-error.js';
import type { TSchema } from 'typebox';
import type { UpstreamRequest } from '../plugin/upstream-types.js';
import type { UpstreamInterceptor } from '../plugin/tool-context.js';
import { scrubJsonValue, type Scrub, type WalkBudget } from '../result/secret-scrubber.js';
import { errorResult, successResult } from '../result/tool-result.js';
import type { CallContext, ToolContext, ToolOutput } from '../plugin/call-context.js';
import { envelopeCheck } from './envelope-check.js';
import { prepareCall } from './prepare-call.js';
import { furtherRequestGate } from './request-gate.js';
import type { Contribution } from './stage-chain.js';

export interface CoreStageDeps {
  validatorFor(tool: string): Validator;
  /** The interceptors of one call (the kernel wraps the tool's own to observe the call). */
  interceptorsFor(ctx: CallContext): readonly UpstreamInterceptor[];
  /** Replaces configured secret values (in every form they travel in): a secret never reaches a caller. */
  scrub: Scrub;
  /**
   * The most nodes a handler's value may have, counted as rendering walks it (shared parts each time they
   * appear): what the largest response body could hold (MCP_MAX_RESPONSE_BYTES; a node takes a byte or more).
   */
  maxValueNodes: number;
  /** MCP_READ_ONLY: a route that is not a GET is refused before policy (the gate does the same for every other request). */
  readOnlyServer: boolean;
}

/** The stages the kernel itself provides: the result envelope, argument validation, the handler call and the envelope check. */
export function coreStages(deps: CoreStageDeps): Contribution[] {
  return [
    { stage: 'envelope', plugin: 'kernel', name: 'result-envelope', run: (ctx, next) => envelope(ctx, next, deps) },
    { stage: 'validate', plugin: 'kernel', name: 'input-schema', run: (ctx, next) => validate(ctx, next, deps) },
    { stage: 'upstream', plugin: 'kernel', name: 'tool-handler', run: (ctx, next) => callHandler(ctx, next, deps) },
    envelopeCheck(),
  ];
}

async function envelope(ctx: CallContext, next: () => Promise<void>, deps: CoreStageDeps): Promise<void> {
  try {
    await next();
    ctx.result = successResult(ctx);
  } catch (thrown) {
    const error = asToolError(thrown, ctx);
    ctx.errorCode = error.code;
    ctx.result = errorResult(error, ctx.meta, deps.scrub);
  }
  // The last net: everything was scrubbed before it was shaped or cut, so this finds nothing on its own.
  for (const block of ctx.result.content) if (block.type === 'text') block.text = deps.scrub(block.text);
}

function asToolError(thrown: unknown, ctx: CallContext): ToolError {
  if (isToolError(thrown)) return thrown;
  if (ctx.signal.aborted) return new ToolError('cancelled', `The call to ${ctx.tool.spec.name} was cancelled.`);
  // A plugin bug must not take the server down or leak a stack trace into the model's context.
  ctx.logger.error({ err: thrown, tool: ctx.tool.spec.name, plugin: ctx.tool.plugin }, 'tool handler failed');
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return new ToolError('tool_failed', `The ${ctx.tool.plugin} plugin failed while running ${ctx.tool.spec.name}: ${reason}`);
}

async function validate(ctx: CallContext, next: () => Promise<void>, deps: CoreStageDeps): Promise<void> {
  const call = prepareCall(ctx.tool, deps.validatorFor(ctx.tool.spec.name), ctx.args, deps.readOnlyServer);
  ctx.args = call.args;
  if (call.route !== undefined) ctx.route = call.route;
  if (call.prepared !== undefined) ctx.prepared = call.prepared;
  await next();
}

async function callHandler(ctx: CallContext, next: () => Promise<void>, deps: CoreStageDeps): Promise<void> {
  const toolCtx: ToolContext<TSchema, UpstreamRequest | undefined> = {
    toolName: ctx.tool.spec.name,
    args: ctx.args,
    principal: ctx.principal,
    signal: ctx.signal,
    logger: ctx.logger,
    route: ctx.route,
    prepared: ctx.prepared,
    interceptors: deps.interceptorsFor(ctx),
    bodyLease: ctx.bodyLease,
    gate: furtherRequestGate(ctx, deps.readOnlyServer),
    time: (step, micros) => {
      ctx.timings[step] = (ctx.timings[step] ?? 0) + micros;
    },
  };
  const output: ToolOutput = await ctx.tool.handler(toolCtx);
  if (output === null || typeof output !== 'object') {
    // A plugin bug (a handler that forgot to return): say what it must return rather than show a TypeError.
    throw new Error(`the handler returned ${output === null ? 'null' : typeof output} instead of a ToolOutput ({ value } or { text })`);
  }
  // Scrubbed before projection, rendering and cutting: no jq expression sees a secret (`reverse(auth)`,
  // `starts_with(auth, 'ghp_a')` as an oracle), and no cut leaves the head of one behind.
  ctx.output = scrubbedOutput(output, deps);
  ctx.value = ctx.output.value;
  await next();
}

/**
 * The handler's output with every secret scrubbed. The walk that scrubs also bounds what rendering will walk
 * later: a value that shares parts by reference (a plugin bug) could render to far more than it holds.
 */
function scrubbedOutput(output: ToolOutput, deps: CoreStageDeps): ToolOutput {
  const walk: WalkBudget = {
    left: deps.maxValueNodes,
    exceeded: () =>
      new Error(
        `it returned a value of more than ${deps.maxValueNodes} nodes (a part shared by reference counts each time it appears), more than any response it may read can hold`,
      ),
  };
  const out: ToolOutput = { ...output };
  if (output.value !== undefined) out.value = scrubJsonValue(output.value, deps.scrub, walk);
  if (output.meta !== undefined) out.meta = scrubJsonValue(output.meta, deps.scrub, walk);
  if (output.text !== undefined) out.text = deps.scrub(output.text);
  return out;
}
