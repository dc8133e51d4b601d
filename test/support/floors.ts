// The floors the layer test holds core/ and server/ to, and docs/architecture.md names: shared by both tests.

/**
 * core/'s folders, lowest first: the ground (text, errors, files, who calls, schemas, stores, settings, metrics,
 * results, logging, artifacts, the one `compose`), then the plugin contract, the upstream client, the pipeline
 * that runs a call, the helpers vendors share, the kernel that boots plugins, and the public entry points.
 */
export const CORE_FLOORS = [
  'text',
  'errors',
  'files',
  'identity',
  'schema',
  'store',
  'config',
  'metrics',
  'result',
  'logging',
  'artifacts',
  'flow',
  'plugin',
  'http',
  'pipeline',
  'vendor',
  'kernel',
  'public',
] as const;

/**
 * server/'s folders, lowest first: the HTTP helpers every part shares (Host and Origin checks, body reading, the
 * route type), tracing, authentication, the Prometheus metrics (they count authentication's refusals), starting
 * a kernel (config, plugin loading), the MCP adapter (what a transport carries), the console's frame, the routes
 * beside /mcp (artifacts, the plugins' routes, the console, /metrics), the transports, the CLI's frame, and the
 * test kit with its public entry point.
 */
export const SERVER_FLOORS = ['http', 'tracing', 'auth', 'metrics', 'bootstrap', 'mcp', 'console', 'routes', 'transports', 'cli', 'testing', 'public'] as const;
