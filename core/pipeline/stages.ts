import type { ToolSpec } from '../plugin/tool-spec.js';
import type { CallContext } from './call-context.js';

/**
 * The fixed, named stages of every tool call, in the order they run. The order never depends on when a plugin
 * registered: validate before policy so rules see typed arguments; policy before the upstream call so a cache
 * hit cannot get around a rule; projection feeds both the text and the structured value.
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
] as const;

export type StageName = (typeof STAGES)[number];

export type Next = () => Promise<void>;
export type Middleware = (ctx: CallContext, next: Next) => Promise<void>;

/** A plugin's contribution to one stage. */
export interface StageMiddleware {
  stage: StageName;
  /** Shown in logs and in the stage breakdown of the benchmark. */
  name: string;
  /** Decided once per tool when its chain is composed at start-up; omitted means every tool. */
  appliesTo?(tool: ToolSpec): boolean;
  run: Middleware;
}
