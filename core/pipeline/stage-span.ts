import type { Span } from '@opentelemetry/api';
import { isToolError } from '../errors/tool-error.js';
import { childSpan, markFailed } from '../metrics/tracing.js';
import type { Call } from '../plugin/call.js';

/**
 * The stages a call's trace shows as spans of their own, beside its upstream requests: the policy decision
 * (whether it waited on the approvals store shows there) and the render (TOON or JSON of a large value). The
 * others take microseconds and would only crowd the trace.
 */
const TRACED_STAGES: ReadonlySet<string> = new Set(['policy', 'render']);

/** A traced stage's span, ended once: by the stage handing on (an around stage's own work is done) or by its end. */
export interface StageSpan {
  end(error?: unknown): void;
}

const NONE: StageSpan = { end: () => {} };

/** The span of one stage contributor (`policy policy/policy-decision`), under the call's; none for untraced stages. */
export function stageSpan(call: Call, stage: string, name: string): StageSpan {
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
