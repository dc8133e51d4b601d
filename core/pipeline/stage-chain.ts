import type { ToolSpec } from '../plugin/contract.js';
import type { CallContext } from '../plugin/call-context.js';
import { compose, type Layer, type Onion } from '../flow/compose.js';
import { byListedOrder, listedContributors, qualifiedName, STAGES } from './pipeline.js';
import type { StageMiddleware } from '../plugin/stages.js';

/** A stage middleware with the plugin that contributed it (`kernel` for the kernel's own). */
export interface Contribution extends StageMiddleware {
  readonly plugin: string;
}

/**
 * The chain of one tool, composed once at start-up: the contributions that apply to it, stage by stage in
 * pipeline order and within a stage as pipeline.ts lists them. Each is timed into `ctx.timings[stage]`,
 * exclusive of what runs inside its `next()` (the benchmark's stage breakdown).
 */
export function chainForTool(contributions: readonly Contribution[], tool: ToolSpec): Onion<CallContext, void> {
  const applicable = contributions.filter((m) => m.appliesTo?.(tool) ?? true);
  const ordered = STAGES.flatMap((stage) =>
    byListedOrder(
      applicable.filter((m) => m.stage === stage),
      listedContributors(stage),
    ),
  );
  return compose(ordered.map(timed), async () => {});
}

function timed(m: Contribution): Layer<CallContext, void> {
  return {
    name: `${m.stage}:${qualifiedName(m)}`,
    run: async (ctx, next) => {
      const started = performance.now();
      let inner = 0;
      try {
        await m.run(ctx, async () => {
          const t = performance.now();
          try {
            await next(ctx);
          } finally {
            inner += performance.now() - t;
          }
        });
      } finally {
        ctx.timings[m.stage] = (ctx.timings[m.stage] ?? 0) + (performance.now() - started - inner) * 1000;
      }
    },
  };
}
