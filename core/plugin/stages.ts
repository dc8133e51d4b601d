import type { ToolSpec } from './tool-spec.js';
import type { CallContext } from './call-context.js';
import type { STAGES } from '../pipeline/pipeline.js';

/** The fixed, named stages of every tool call (core/pipeline/pipeline.ts lists them, and their contributors, in order). */
export type StageName = (typeof STAGES)[number];

export type Next = () => Promise<void>;
export type Middleware = (ctx: CallContext, next: Next) => Promise<void>;

/** A plugin's contribution to one stage. */
export interface StageMiddleware {
  stage: StageName;
  /** Shown in logs and in the stage breakdown of the benchmark; its place in the stage is listed in pipeline.ts. */
  name: string;
  /** Decided once per tool when its chain is composed at start-up; omitted means every tool. */
  appliesTo?(tool: ToolSpec): boolean;
  run: Middleware;
}
