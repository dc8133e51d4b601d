import Type from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';

/** Who may scrape the Prometheus metrics, and where a server that is not serving HTTP exposes them (HTTP servers have /metrics). */
export const MetricsSettings = Type.Object({
  MCP_METRICS_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 0,
    description: 'Serve Prometheus metrics at http://MCP_METRICS_HOST:PORT/metrics (stdio servers; the HTTP transport always has /metrics). 0: off.',
  }),
  MCP_METRICS_HOST: Type.String({
    default: '127.0.0.1',
    description: 'Address MCP_METRICS_PORT binds to; beyond loopback, scrapes must send MCP_METRICS_TOKEN.',
  }),
  MCP_METRICS_TOKEN: secret(
    Type.String({
      default: '',
      description:
        'Bearer token a scrape of /metrics must send (with authentication on, or MCP_METRICS_HOST beyond loopback), and the only one it takes; it reads and decides nothing else. Empty: MCP_ADMIN_TOKEN still scrapes, with a warning, until 0.4.0.',
    }),
  ),
});
