import type { Static, TObject, TSchema } from 'typebox';
import type { ToolContext, ToolOutput } from '../pipeline/call-context.js';
import type { StageMiddleware } from '../pipeline/stages.js';
import type { UpstreamBinding, UpstreamInterceptor, UpstreamRequest } from '../http/types.js';

/** What `@Plugin` records. */
export interface PluginSpec {
  /** Unique name, used in config files (`"plugins": ["github"]`), dependencies and error messages. */
  name: string;
  version: string;
  /** Plugins that must boot before this one. A missing one fails start-up, naming both. */
  dependsOn?: string[];
  /** TypeBox object of the settings this plugin reads (keys are setting names such as `GITHUB_TOKEN`). */
  settings?: TObject;
  /** Sections of `~/.mcp/configs.json` this plugin's settings may come from (default: its name). */
  configSections?: string[];
  /** How long `boot()` may take before start-up fails (default 10 s). */
  bootTimeoutMs?: number;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * What `@Tool` records on a method of a plugin class. `I` is the input schema and `E` the envelope; keep both
 * precise (declare a spec constant with `satisfies ToolSpec<typeof Args>`, not a `: ToolSpec` annotation) so
 * that `@Tool` can check the handler's `ToolContext` and `ToolOutput` against them.
 */
export interface ToolSpec<I extends TSchema = TSchema, E extends TSchema | undefined = TSchema | undefined> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** TypeBox schema of the arguments; compiled once at start-up. */
  input: I;
  /** TypeBox schema of the structured envelope, for tools with a structured contract. */
  envelope?: E;
  /**
   * The upstream request this call makes, computed from the validated arguments without side effects.
   * The policy stage decides on it before anything is sent, and `policy explain` shows it.
   */
  route?: (args: Static<I>) => UpstreamRequest;
  /** Serve this tool's upstream GETs through the HTTP cache (cache plugin). */
  cache?: boolean;
}

/** A spec that declares its `route`: the handler's `ctx.route` is then always present. */
export type RoutedToolSpec<I extends TSchema, E extends TSchema | undefined = undefined> = ToolSpec<I, E> & {
  route: (args: Static<I>) => UpstreamRequest;
};

/** A tool as the kernel holds it after reading the decorators. */
export interface ToolDefinition {
  readonly spec: ToolSpec;
  readonly plugin: string;
  readonly handler: (ctx: ToolContext<TSchema, UpstreamRequest | undefined>) => Promise<ToolOutput>;
  /** The vendor plugin's upstream client, when it has one (policy and cache need its identity). */
  readonly upstream?: UpstreamBinding;
}

/** Handed to `boot()`: what a plugin may do while the kernel starts. */
export interface BootContext {
  /** Make a service available to plugins that boot later (and depend on this one). */
  provide(token: symbol | string, value: unknown): void;
}

/** The lifecycle a plugin class may implement; every member is optional. */
export interface DevtoolsPlugin {
  boot?(ctx: BootContext): Promise<void> | void;
  close?(): Promise<void> | void;
  /** Cross-cutting plugins: middleware for the named stages of every applicable tool's pipeline. */
  middleware?(): StageMiddleware[];
  /** Cross-cutting plugins: interceptors around upstream requests (the HTTP cache). */
  interceptors?(): UpstreamInterceptor[];
  /** Vendor plugins: the client their tools call; read by the kernel after boot. */
  readonly upstream?: UpstreamBinding;
  /** Cross-cutting plugins: adjust a tool's `tools/list` entry (the structured plugin adds `outputSchema`). */
  describeTool?(tool: ToolSpec, descriptor: ToolDescriptor, protocolVersion: string | undefined): ToolDescriptor;
}

/** A tool as `tools/list` shows it. */
export interface ToolDescriptor {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}
