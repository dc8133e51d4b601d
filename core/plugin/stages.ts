import type { Answer, Call, Produced } from './call.js';
import type { ToolSpec } from './tool-spec.js';

/**
 * The stages around the handler: each runs before it and may act on the way back (core/pipeline/pipeline.ts
 * gives their order, and their contributors' order, in one place).
 */
export type AroundStageName = 'envelope' | 'validate' | 'policy';
/** The stages after the handler: each takes what the one before produced and returns what it makes of it. */
export type TransformStageName = 'project' | 'render' | 'truncate' | 'structured' | 'spill';
/** The kernel's own: the handler and the interceptors around its requests. */
export type StageName = AroundStageName | 'upstream' | TransformStageName;

interface Placement {
  /** Shown in logs and in the stage breakdown; its place in the stage is listed in pipeline.ts. */
  name: string;
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
