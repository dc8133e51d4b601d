import Type from 'typebox';

/** Where a server that is not serving HTTP exposes its Prometheus metrics (HTTP servers have /metrics). */
export const MetricsSettings = Type.Object({
  MCP_METRICS_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 0,
    description: 'Serve Prometheus metrics at http://MCP_METRICS_HOST:PORT/metrics (stdio servers; the HTTP transport always has /metrics). 0: off.',
  }),
  MCP_METRICS_HOST: Type.String({
    default: '127.0.0.1',
    description: 'Address MCP_METRICS_PORT binds to; beyond loopback, scrapes must send MCP_ADMIN_TOKEN.',
  }),
});
