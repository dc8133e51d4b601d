import type { Settings } from '../../core/config/settings.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

/**
 * The Prometheus metrics of a server that exposes them: over the HTTP transport (at /metrics) or on
 * MCP_METRICS_PORT. prom-client is loaded only then; a stdio server without the port counts nothing.
 */
export async function exposedMetrics(settings: Settings): Promise<PrometheusMetrics | undefined> {
  if (settings.get('MCP_TRANSPORT') !== 'http' && settings.get<number>('MCP_METRICS_PORT') === 0) return undefined;
  const { PrometheusMetrics } = await import('./prometheus-metrics.js');
  return new PrometheusMetrics();
}

/**
 * Points the metrics' gauges at the running kernel and, with MCP_METRICS_PORT, serves them on that port.
 * Returns what stops it (nothing to stop without metrics or a port).
 */
export async function startMetrics(kernel: Kernel, settings: Settings, metrics: PrometheusMetrics | undefined, logger: Logger): Promise<() => Promise<void>> {
  if (metrics === undefined) return async () => {};
  metrics.watch({ callsInFlight: () => kernel.callsInFlight, bodyBytesInFlight: () => kernel.bodyBytesInFlight });
  const port = settings.get<number>('MCP_METRICS_PORT');
  if (port === 0) return async () => {};
  const { serveMetrics } = await import('./metrics-server.js');
  const server = await serveMetrics(metrics, { host: settings.get('MCP_METRICS_HOST'), port, adminToken: settings.get('MCP_ADMIN_TOKEN'), logger });
  return () => server.close();
}
