import type { TSchema } from 'typebox';
import type { UpstreamBinding, UpstreamRequest } from './upstream-types.js';
import type { ToolContext, ToolOutput } from './tool-context.js';
import type { ToolSpec } from './tool-spec.js';

/** A tool as the kernel holds it after reading the decorators. */
export interface ToolDefinition {
  readonly spec: ToolSpec;
  readonly plugin: string;
  readonly handler: (ctx: ToolContext<TSchema, UpstreamRequest | undefined>) => Promise<ToolOutput>;
  /** The vendor plugin's upstream client, when it has one (policy and cache need its identity). */
  readonly upstream?: UpstreamBinding;
}
