import type { TObject } from 'typebox';
import type { DefinedTool } from './define-tool.js';
import type { Contributions } from './contributions.js';
import type { UpstreamBinding } from './upstream-types.js';
import type { StageMiddleware } from './stages.js';
import type { UpstreamInterceptor } from './tool-context.js';
import type { ToolSpec } from './tool-spec.js';

export type { ToolDefinition } from './tool-definition.js';
export type {
  FurtherRoute,
  FurtherRoutes,
  GraphqlLimits,
  GraphqlSpec,
  GraphqlToolSpec,
  RoutedToolSpec,
  ToolAnnotations,
  ToolSpec,
  ToolSpecBase,
} from './tool-spec.js';

/** What `@Plugin` records. `D` is what the plugin's tools take as their dependencies (see `defineTool`). */
export interface PluginSpec<D = never> {
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
  /**
   * The toolsets this plugin's tools name (`ToolSpec.toolset`), each `<plugin>` or `<plugin>.<group>`: what
   * `list_toolsets` says of it, and whether a server started with no selection serves it (default true).
   */
  toolsets?: Record<string, ToolsetSpec>;
  /**
   * The plugin's tools, each one value made by `defineTool` (name, schemas, route and handler together), served
   * in this order and before any `@Tool` method of the class. Each handler is called with the plugin instance.
   */
  tools?: readonly DefinedTool<D>[];
  /** HTTP routes, CLI commands and console pages the plugin adds to the server (contributions.ts). */
  contributes?: Contributions;
}

/** What a plugin says of one of its toolsets. */
export interface ToolsetSpec {
  /** One line for `list_toolsets` and the docs: the jobs its tools do. */
  description: string;
  /** Served when no toolset is selected (default true); a plugin keeps its rarely needed tools out of the default. */
  default?: boolean;
}

/** Handed to `boot()`: what a plugin may do while the kernel starts. */
export interface BootContext {
  /**
   * Make a service available to plugins that boot later (and depend on this one). A token is provided once: one
   * that another plugin (or the server itself) already provides fails start-up, naming both.
   */
  provide(token: symbol | string, value: unknown): void;
}

/**
 * `TOKENS.Services`: a service another plugin provides, looked up when a call needs it. For a service a plugin
 * uses without depending on its provider: the provider may boot after it, or not be loaded (undefined).
 */
export interface ServiceLookup {
  find<T>(token: symbol | string): T | undefined;
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
  /**
   * Plugins that call vendors through clients of their own rather than one `upstream` (the ci plugin): whether any
   * has credentials. The default tools leave out a plugin that answers false, as they leave out a vendor.
   */
  hasCredentials?(): boolean;
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
