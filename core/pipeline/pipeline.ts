import { StartupError } from '../errors/tool-error.js';
import type { StageName } from '../plugin/stages.js';
import { placedOrder, qualifiedName, type Placed } from './placement.js';

export { qualifiedName, type Placed } from './placement.js';

/**
 * The order of every tool call, in one place. A call goes through three rings, outermost first:
 * 1. the call-wide steps (call-frame.ts: the client's log messages, the tool lookup, the in-flight count, the
 *    call's span, its request id, its log line, its body budget), each a named step placed by before/after;
 * 2. the stages below, in this fixed order, and within each stage its contributors in the order their
 *    before/after declarations give (placement.ts: topological, ties by `plugin/name`, cycles and unknown names
 *    refused at start-up naming the plugins);
 * 3. inside the upstream stage, the interceptors around every request the handler sends, placed the same way.
 * The MCP adapter (server/mcp) only converts a request into a call and an answer into a result;
 * test/golden/call-order.txt holds the whole order for jira_get, pipeline-chains.json every tool's chain.
 *
 * Why this order: validation before policy, so rules see typed arguments and the one request the call may
 * make, prepared once; policy before the upstream call and its cache, so a cache hit cannot get around a rule;
 * the request gate outermost around the network, so every request a handler sends (a second page, a
 * follow-up read) is the one policy decided on or is decided itself; provenance fences and withholds untrusted
 * text before projection, so a jq expression picks a field with its fence (or its withheld line); projection
 * feeds both the text and the structured value; the envelope check before the spill, so no value that breaks its schema is stored or sent.
 * The stages before `upstream` run around the rest of the call; the stages after it take what the handler
 * produced, in this order, each handing its result to the next (core/plugin/stages.ts).
 */
export const STAGES = [
  'envelope',
  'validate',
  'policy',
  'upstream',
  'project',
  'render',
  'truncate',
  'structured',
  'spill',
] as const satisfies readonly StageName[];

/**
 * The call-wide steps, outermost first, as the kernel makes them (core/kernel/call-steps.ts): the artifacts a
 * result names linked for the client (after everything else, so a link points at what the call saved); a
 * toolset the call enabled announced; the client's log messages (`started` before the tool is even looked up,
 * `answered`/`failed` once the result is final); the lookup (an unknown or hidden tool is a protocol error);
 * the in-flight count (shutdown waits for it, cancellation reaches it); the call's span, then its request id
 * (the span's trace id when none came), its log line and metrics, and the upstream body budget it draws on.
 */
export const CALL_STEPS: readonly Placed[] = [
  { plugin: 'kernel', name: 'artifact-links', before: ['kernel/toolsets-changed'] },
  { plugin: 'kernel', name: 'toolsets-changed', before: ['kernel/client-log-messages'] },
  { plugin: 'kernel', name: 'client-log-messages', before: ['kernel/tool-lookup'] },
  { plugin: 'kernel', name: 'tool-lookup', before: ['kernel/in-flight'] },
  { plugin: 'kernel', name: 'in-flight', before: ['kernel/call-span'] },
  { plugin: 'kernel', name: 'call-span', before: ['kernel/request-id'] },
  { plugin: 'kernel', name: 'request-id', before: ['kernel/call-log'] },
  { plugin: 'kernel', name: 'call-log', before: ['kernel/body-lease'] },
  { plugin: 'kernel', name: 'body-lease' },
];

/** The call-wide steps in running order, outermost first. */
export function orderCallSteps(): readonly Placed[] {
  return placedOrder(CALL_STEPS, 'the call-wide steps');
}

/**
 * The interceptors the kernel makes for each call, and their places: the gate outermost (every request is the
 * one policy decided on), then the observer (timings, spans), the request counter innermost (only what really
 * leaves is counted). A plugin's interceptor (the cache's) places itself among them.
 */
export const KERNEL_INTERCEPTORS: readonly Placed[] = [
  { plugin: 'kernel', name: 'request-gate', before: ['kernel/call-observer'] },
  { plugin: 'kernel', name: 'call-observer', before: ['kernel/request-counter'] },
  { plugin: 'kernel', name: 'request-counter' },
];

/** A contribution to a stage, placed: what the stage chain is composed from. */
export type StagePlaced = Placed & { readonly stage: string };

/**
 * Every stage's contributors in running order: stage by stage as STAGES lists them, within a stage as their
 * declarations place them. Computed once at start-up; a tool's chain is the part of it that applies to the tool.
 */
export function orderStages<T extends StagePlaced>(contributions: readonly T[]): T[] {
  for (const c of contributions) {
    if (!(STAGES as readonly string[]).includes(c.stage) || c.stage === 'upstream') {
      throw new StartupError(
        `Plugin "${c.plugin}" contributes "${qualifiedName(c)}" to a stage named "${c.stage}": the stages are ${STAGES.filter((s) => s !== 'upstream').join(', ')}.`,
      );
    }
  }
  return STAGES.flatMap((stage) =>
    placedOrder(
      contributions.filter((c) => c.stage === stage),
      `the ${stage} stage`,
    ),
  );
}

/** The kernel's interceptors and the plugins', in running order around each upstream request. */
export function orderInterceptors<T extends Placed>(interceptors: readonly T[]): Array<T | Placed> {
  return placedOrder<T | Placed>([...KERNEL_INTERCEPTORS, ...interceptors], 'the upstream interceptors');
}

/** The order as data: each stage's contributors, the upstream stage with its interceptors (the golden file). */
export function pipelineTable(
  stages: readonly StagePlaced[],
  interceptors: readonly Placed[],
): Array<{ stage: StageName; contributors: string[]; interceptors?: string[] }> {
  return STAGES.map((stage) =>
    stage === 'upstream'
      ? { stage, contributors: ['kernel/tool-handler'], interceptors: interceptors.map(qualifiedName) }
      : { stage, contributors: stages.filter((c) => c.stage === stage).map(qualifiedName) },
  );
}
