import type { CallContext } from './call-context.js';
import { STAGES, type Middleware, type StageMiddleware } from './stages.js';

export interface ComposedChain {
  run(ctx: CallContext): Promise<void>;
  /** Names of the middleware in running order, for logs and tests. */
  readonly names: readonly string[];
}

/** Orders contributions by stage (stable within a stage: plugin boot order) and keeps those for this tool. */
export function orderForTool(contributions: readonly StageMiddleware[], keep: (m: StageMiddleware) => boolean): StageMiddleware[] {
  const rank = new Map(STAGES.map((s, i) => [s, i]));
  return contributions
    .filter(keep)
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank.get(a.m.stage)! - rank.get(b.m.stage)! || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * Composes middleware into one onion: each runs, calls `next()` to hand on, and may act on the way back.
 * Every middleware is timed into `ctx.timings[stage]` (exclusive of what runs inside its `next()`).
 */
export function compose(chain: readonly StageMiddleware[]): ComposedChain {
  const run = (ctx: CallContext): Promise<void> => {
    let last = -1;
    const dispatch = async (i: number): Promise<void> => {
      if (i <= last) throw new Error(`middleware ${chain[i - 1]?.name ?? '?'} called next() twice`);
      last = i;
      const entry = chain[i];
      if (entry === undefined) return;
      const started = performance.now();
      let inner = 0;
      const next = async (): Promise<void> => {
        const t = performance.now();
        try {
          await dispatch(i + 1);
        } finally {
          inner += performance.now() - t;
        }
      };
      try {
        await (entry.run as Middleware)(ctx, next);
      } finally {
        const own = (performance.now() - started - inner) * 1000;
        ctx.timings[entry.stage] = (ctx.timings[entry.stage] ?? 0) + own;
      }
    };
    return dispatch(0);
  };
  return { run, names: chain.map((m) => `${m.stage}:${m.name}`) };
}
