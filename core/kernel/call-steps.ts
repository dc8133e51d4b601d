import type { CallToolResult } from '@modelcontextprotocol/server';
import { context } from '@opentelemetry/api';
import type { Layer } from '../flow/compose.js';
import type { Principal } from '../identity/principal.js';
import type { BodyLease } from '../plugin/body-lease.js';
import type { Call } from '../plugin/call.js';
import { reportCall, type CallReport, type CallReporting } from './call-log.js';
import { callMessages } from './call-messages.js';
import { endCallSpan, makeRequestId, recordedTraceId, startCallSpan, type CallSpan } from './call-span.js';
import type { CallOptions } from './call-options.js';
import type { RegisteredTool } from './tool-registry.js';
import { ENABLE_TOOLSET, type Reach } from './tool-selection.js';

export { UnknownToolError, type CallOptions, type ClientChannel } from './call-options.js';

/** One call on its way through the call-wide steps: what the request said, and what each step adds. */
export interface CallInProgress {
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
  readonly principal: Principal;
  readonly options: CallOptions;
  tool?: RegisteredTool;
  signal?: AbortSignal;
  span?: CallSpan;
  requestId?: string;
  report?: CallReport;
  bodyLease?: BodyLease;
}

/** What a call ends with: its result, and microseconds per stage and sub-step (the benchmark's breakdown). */
export interface CallOutcome {
  result: CallToolResult;
  timings: Record<string, number>;
}

/** What the kernel lends its call-wide steps. */
export interface CallStepDeps {
  /** The tool by name, or UnknownToolError saying why the caller cannot have it. */
  lookup(name: string, principal: Principal, reach: Reach | undefined): Promise<RegisteredTool>;
  inFlight: InFlightCalls;
  /** A request id the caller sent, if it may be used as one (call-span.ts, and no configured secret in it). */
  acceptedRequestId(sent: string | undefined): string | undefined;
  reporting: CallReporting;
  leaseBody(): BodyLease;
  enabledToolsets(principal: Principal): Promise<ReadonlySet<string>>;
  /** The `resource_link` blocks of the artifacts a result names (absent: the server keeps no artifacts). */
  linkArtifacts?(result: CallToolResult, owner: Principal): Promise<CallToolResult>;
}

type Step = Layer<CallInProgress, CallOutcome>;

/** The kernel's call-wide steps by name; pipeline.ts places them (CALL_STEPS). */
export function callSteps(deps: CallStepDeps): Record<string, Step['run']> {
  return {
    'artifact-links': async (frame, next) => {
      const outcome = await next(frame);
      if (deps.linkArtifacts === undefined || frame.options.channel?.resourceLinks !== true) return outcome;
      return { ...outcome, result: await deps.linkArtifacts(outcome.result, frame.principal) };
    },
    'toolsets-changed': async (frame, next) => {
      const channel = frame.options.channel;
      if (frame.name !== ENABLE_TOOLSET || channel === undefined) return next(frame);
      const before = (await deps.enabledToolsets(frame.principal)).size;
      const outcome = await next(frame);
      if (outcome.result.isError !== true && (await deps.enabledToolsets(frame.principal)).size > before) await channel.toolsChanged();
      return outcome;
    },
    'client-log-messages': async (frame, next) => {
      const channel = frame.options.channel;
      if (channel?.logThreshold === undefined) return next(frame);
      const messages = callMessages(frame.name, channel.logThreshold, channel.notify);
      await messages.started();
      const started = performance.now();
      const outcome = await next(frame);
      await messages.ended(outcome.result, performance.now() - started);
      return outcome;
    },
    'tool-lookup': async (frame, next) => {
      frame.tool = await deps.lookup(frame.name, frame.principal, frame.options.reach);
      return next(frame);
    },
    'in-flight': (frame, next) =>
      deps.inFlight.run(frame.options.signal, (signal) => {
        frame.signal = signal;
        return next(frame);
      }),
    'call-span': async (frame, next) => {
      const span = (frame.span = startCallSpan({ tool: frame.tool!.definition, ...frame.options }));
      let outcome: CallOutcome | undefined;
      try {
        // The call's span is the active one while it runs: a plugin's own spans are its children.
        outcome = await context.with(span.context, () => next(frame));
        return outcome;
      } finally {
        endCallSpan(span, frame.requestId!, frame.report?.answer);
      }
    },
    'request-id': (frame, next) => {
      frame.requestId = deps.acceptedRequestId(frame.options.requestId) ?? recordedTraceId(frame.span!) ?? makeRequestId();
      return next(frame);
    },
    'call-log': async (frame, next) => {
      const { options } = frame;
      frame.report = {
        tool: frame.tool!.definition,
        principal: frame.principal,
        requestId: frame.requestId!,
        client: options.client,
        traceId: recordedTraceId(frame.span!),
        timings: {},
      };
      const started = performance.now();
      try {
        return await next(frame);
      } finally {
        reportCall(frame.report, performance.now() - started, deps.reporting);
      }
    },
    'body-lease': async (frame, next) => {
      frame.bodyLease = deps.leaseBody();
      try {
        return await next(frame);
      } finally {
        frame.bodyLease.release();
      }
    },
  };
}

/** The call the stages see, made from what the call-wide steps found: the innermost step, the tool's chain. */
export async function runToolChain(frame: CallInProgress, reports: WeakMap<object, CallReport>, logger: Call['logger']): Promise<CallOutcome> {
  const tool = frame.tool!;
  const report = frame.report!;
  const scope = {};
  reports.set(scope, report);
  const { options } = frame;
  const call: Call = {
    scope,
    tool: tool.definition,
    principal: frame.principal,
    signal: frame.signal!,
    logger,
    protocolVersion: options.protocolVersion,
    requestId: frame.requestId!,
    ...(options.client === undefined ? {} : { client: options.client }),
    ...(options.session === undefined ? {} : { session: options.session }),
    traceContext: frame.span!.context,
    // Absent arguments are no arguments; null is not an object, and validation refuses it as any other.
    args: frame.args === undefined ? {} : frame.args,
    meta: {},
    bodyLease: frame.bodyLease!,
    time: (step, micros) => {
      report.timings[step] = (report.timings[step] ?? 0) + micros;
    },
    ...(options.progress && { progress: options.progress }),
    ...(options.channel?.askToOpen && { askToOpen: options.channel.askToOpen }),
    ...(options.channel?.askToConfirm && { askToConfirm: options.channel.askToConfirm }),
    ...(options.channel?.confirmByRetry && { confirmByRetry: options.channel.confirmByRetry }),
  };
  report.answer = await tool.chain.run(call);
  return { result: report.answer.result, timings: report.timings };
}

/**
 * Tracks calls in progress so shutdown can let them finish, then cancel what is left. Each call gets its own
 * AbortSignal, aborted when the client cancels or when the grace period ends.
 */
export class InFlightCalls {
  private readonly calls = new Set<{ done: Promise<unknown>; controller: AbortController }>();

  async run<T>(external: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(external?.reason);
    if (external?.aborted) controller.abort(external.reason);
    else external?.addEventListener('abort', onAbort, { once: true });
    const done = work(controller.signal);
    const entry = { done, controller };
    this.calls.add(entry);
    try {
      return await done;
    } finally {
      this.calls.delete(entry);
      external?.removeEventListener('abort', onAbort);
    }
  }

  get size(): number {
    return this.calls.size;
  }

  async drain(graceMs: number): Promise<void> {
    if (this.calls.size === 0) return;
    const all = Promise.allSettled([...this.calls].map((c) => c.done));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), graceMs);
    });
    const outcome = await Promise.race([all, expired]);
    clearTimeout(timer);
    if (outcome === 'expired') {
      for (const c of this.calls) c.controller.abort(new Error('server shutting down'));
      await all;
    }
  }
}
