/**
 * Injection tokens of the services the kernel provides to plugins. Strings, not symbols or classes, so that a
 * third-party plugin built against its own copy of the plugin API resolves the same services.
 * Always inject with `@inject(TOKENS.X)`: bundlers built on esbuild drop decorator metadata silently.
 */
export const TOKENS = {
  /** pino Logger, a child named after the plugin. */
  Logger: 'mcp-devtools:Logger',
  /** The effective Settings. */
  Settings: 'mcp-devtools:Settings',
  /** The KeyValueStore (memory, SQLite or Redis). */
  Store: 'mcp-devtools:Store',
  /** The Clock; controllable in tests. */
  Clock: 'mcp-devtools:Clock',
  /** The Metrics the server records (tool calls, cache lookups, policy decisions); a no-op without an endpoint. */
  Metrics: 'mcp-devtools:Metrics',
  /**
   * The secret scrubber, `(text) => text`: every configured secret, and each form it travels in (URL-encoded,
   * base64, the Basic value an upstream client sends), replaced by `[REDACTED]`. For text a plugin writes out.
   */
  Scrubber: 'mcp-devtools:Scrubber',
  /** The ArtifactStore, provided by the artifacts plugin. */
  ArtifactStore: 'mcp-devtools:ArtifactStore',
  /** The LinkedAccounts (core/identity): each principal's linked vendor accounts, provided by the identity plugin when a vault key is set. */
  LinkedAccounts: 'mcp-devtools:LinkedAccounts',
  /** The ToolsetDirectory: the toolsets of the server and what each caller enabled (the toolset tools). */
  Toolsets: 'mcp-devtools:Toolsets',
  /** The ToolCatalogue: the tools a program run by code mode reaches, and the one way it calls them. */
  ToolCatalogue: 'mcp-devtools:ToolCatalogue',
  /**
   * The ServiceLookup (plugin contract): a service another plugin provides, looked up when a call needs it, for a
   * plugin that does not depend on the provider (which may boot later, or not be loaded at all).
   */
  Services: 'mcp-devtools:Services',
  /** The FailureReporter (core/vendor/failure-reporter.ts), provided by the ci plugin: the failure report of one run. */
  FailureReporter: 'mcp-devtools:FailureReporter',
} as const;
