import type { Answer, Call, Produced } from '../plugin/call.js';
import type { ToolSpec } from '../plugin/contract.js';
import { isAround, type AroundMiddleware, type StageMiddleware, type TransformMiddleware } from '../plugin/stages.js';
import { compose, type Layer, type Onion } from '../flow/compose.js';
import { qualifiedName } from './pipeline.js';
import type { Span } from '@opentelemetry/api';
import { isToolError } from '../errors/tool-error.js';
import { childSpan, markFailed } from '../metrics/tracing.js';

/** A stage middleware with the plugin that contributed it (`kernel` for the kernel's own). */
export type Contribution = StageMiddleware & { readonly plugin: string };

/** The handler stage: the tool's own work, what the transforms start from. */
export type HandlerStage = (call: Call) => Promise<Produced>;

/** What a tool's chain ends with once the transforms are done: the call's Answer (core/pipeline/answer.ts). */
export type Finish = (call: Call, produced: Produced) => Answer;

/** A tool's chain: the layers around the handler, and every step's name in running order (golden test, logs). */
export interface ToolChain {
  run(call: Call): Promise<Answer>;
  readonly names: readonly string[];
}

/**
 * The chain of one tool, chosen at start-up (and composed by its first call) from the contributions that apply to it, in the order
 * pipeline.ts gave them (stage by stage, placed within each): the around stages as layers of an onion, and at
 * its centre the handler followed by the transform stages in turn. Each step is timed into `call.time(stage)`,
 * exclusive of what runs inside its `next()`.
 */
export function chainForTool(contributions: readonly Contribution[], tool: ToolSpec, handler: HandlerStage, finish: Finish): ToolChain {
  const ordered = contributions.filter((m) => m.appliesTo?.(tool) ?? true);
  const around = ordered.filter(isAround) as Array<AroundMiddleware & { plugin: string }>;
  const transforms = ordered.filter((m) => !isAround(m)) as Array<TransformMiddleware & { plugin: string }>;
  const name = (m: Contribution): string => `${m.stage}:${qualifiedName(m)}`;
  // Composed by the tool's first call, not at start-up for every tool (most of a server's are seldom called).
  let onion: Onion<Call, Answer> | undefined;
  return {
    run: (call) => (onion ??= composedChain(around, transforms, handler, finish)).run(call),
    names: [...around.map(name), 'upstream:kernel/tool-handler', ...transforms.map(name)],
  };
}

function composedChain(
  around: ReadonlyArray<AroundMiddleware & { plugin: string }>,
  transforms: ReadonlyArray<TransformMiddleware & { plugin: string }>,
  handler: HandlerStage,
  finish: Finish,
): Onion<Call, Answer> {
  // Span names made once here, not at every call.
  const steps = transforms.map((t) => ({ t, span: `${t.stage} ${qualifiedName(t)}` }));
  const centre = async (call: Call): Promise<Answer> => {
    let produced = await timedStep(call, 'upstream', () => handler(call));
    for (const { t, span } of steps) {
      const input = produced;
      produced = await timedStep(call, t.stage, () => t.transform(call, input), span);
    }
    return finish(call, produced);
  };
  return compose(around.map(timedLayer), centre);
}

async function timedStep<T>(call: Call, stage: string, step: () => T | Promise<T>, spanName = stage): Promise<T> {
  const started = performance.now();
  const span = stageSpan(call, stage, spanName);
  let failed: unknown;
  try {
    return await step();
  } catch (error) {
    failed = error;
    throw error;
  } finally {
    span.end(failed);
    call.time(stage, (performance.now() - started) * 1000);
  }
}

function timedLayer(m: AroundMiddleware & { plugin: string }): Layer<Call, Answer> {
  const spanName = `${m.stage} ${qualifiedName(m)}`;
  return {
    name: `${m.stage}:${qualifiedName(m)}`,
    run: async (call, next) => {
      const started = performance.now();
      let inner = 0;
      // The span covers the stage's own work: it ends when the stage hands on, or when it ends without doing so.
      const span = stageSpan(call, m.stage, spanName);
      let failed: unknown;
      try {
        return await m.run(call, async (handed) => {
          span.end();
          const t = performance.now();
          try {
            return await next(handed);
          } finally {
            inner += performance.now() - t;
          }
        });
      } catch (error) {
        failed = error;
        throw error;
      } finally {
        span.end(failed);
        call.time(m.stage, (performance.now() - started - inner) * 1000);
      }
    },
  };
}

/**
 * The stages a call's trace shows as spans of their own, beside its upstream requests: the policy decision
 * (whether it waited on the approvals store shows there) and the render (TOON or JSON of a large value). The
 * others take microseconds and would only crowd the trace.
 */
const TRACED_STAGES: ReadonlySet<string> = new Set(['policy', 'render']);

/** A traced stage's span, ended once: by the stage handing on (an around stage's own work is done) or by its end. */
interface StageSpan {
  end(error?: unknown): void;
}

const NONE: StageSpan = { end: () => {} };

/** The span of one stage contributor (`policy policy/policy-decision`), under the call's; none for untraced stages. */
function stageSpan(call: Call, stage: string, name: string): StageSpan {
  if (!TRACED_STAGES.has(stage)) return NONE;
  const span: Span | undefined = childSpan(call.traceContext, name);
  if (span === undefined) return NONE;
  let ended = false;
  return {
    end: (error) => {
      if (ended) return;
      ended = true;
      if (error !== undefined) markFailed(span, isToolError(error) ? error.code : 'tool_failed');
      span.end();
    },
  };
}
