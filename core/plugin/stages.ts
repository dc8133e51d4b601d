import type { Answer, Call, Produced } from './call.js';
import type { ToolSpec } from './tool-spec.js';

/**
 * The stages around the handler: each runs before it and may act on the way back (core/pipeline/pipeline.ts
 * gives their order; each contributor declares its place in its stage, Placement).
 */
export type AroundStageName = 'envelope' | 'validate' | 'policy';
/** The stages after the handler: each takes what the one before produced and returns what it makes of it. */
export type TransformStageName = 'project' | 'render' | 'truncate' | 'structured' | 'spill';
/** The kernel's own: the handler and the interceptors around its requests. */
export type StageName = AroundStageName | 'upstream' | TransformStageName;

/**
 * Where a contribution goes among the others of its stage (or of the upstream interceptors): `before` and
 * `after` name them as `plugin/name` (`kernel/result-envelope`, `policy/audit-log`). Start-up orders each stage
 * by these declarations (core/pipeline/placement.ts), ties by name, and refuses a name no loaded plugin
 * contributes there or a cycle, naming the plugins. Undeclared, a contribution runs where its name sorts.
 */
export interface Placement {
  /** Shown in logs and in the stage breakdown. */
  name: string;
  /** Contributors of the same stage this one runs before (outside of, for the stages around the handler). */
  before?: readonly string[];
  /** Contributors of the same stage this one runs after (inside of, for the stages around the handler). */
  after?: readonly string[];
  /** Decided once per tool when its chain is composed at start-up; omitted means every tool. */
  appliesTo?(tool: ToolSpec): boolean;
}

/**
 * A contribution around the rest of the call: it may refuse (throw a ToolError), hand `next` a copy of the
 * call that carries what it learned, and see how the call ended (the Answer, or the error on its way out).
 */
export interface AroundMiddleware extends Placement {
  stage: AroundStageName;
  run(call: Call, next: (call: Call) => Promise<Answer>): Promise<Answer>;
}

/** A contribution after the handler: what the stages before it produced, made into what the stages after it take. */
export interface TransformMiddleware extends Placement {
  stage: TransformStageName;
  transform(call: Call, produced: Produced): Produced | Promise<Produced>;
}

/** A cross-cutting plugin's contribution to one stage. */
export type StageMiddleware = AroundMiddleware | TransformMiddleware;

/** Whether a contribution runs around the rest of the call (rather than transforming what the handler produced). */
export const isAround = (m: StageMiddleware): m is AroundMiddleware => 'run' in m;
