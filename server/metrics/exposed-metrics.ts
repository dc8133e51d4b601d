import type { Settings } from '../../core/config/settings.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { HostCheck } from '../http/host-check.js';
import { isLoopbackHost } from '../http/origin-check.js';
import { MetricsSettings } from './metrics-settings.js';
import { scrapeToken } from './scrape-token.js';

/**
 * The Prometheus metrics of a server that exposes them: over the HTTP transport (at /metrics) or on
 * MCP_METRICS_PORT. prom-client is loaded only then; a stdio server without the port counts nothing. In a
 * `--workers` worker (`clustered`), a scrape answers with every worker's figures (cluster-metrics.ts).
 */
export async function exposedMetrics(settings: Settings, clustered = false): Promise<PrometheusMetrics | undefined> {
  if (settings.of(CoreSettings).MCP_TRANSPORT !== 'http' && settings.of(MetricsSettings).MCP_METRICS_PORT === 0) return undefined;
  const { PrometheusMetrics } = await import('./prometheus-metrics.js');
  const metrics = new PrometheusMetrics();
  if (clustered) (await import('./cluster-metrics.js')).joinClusterMetrics(metrics);
  return metrics;
}

/**
 * Points the metrics' gauges at the running kernel and, with MCP_METRICS_PORT, serves them on that port.
 * Returns what stops it (nothing to stop without metrics or a port).
 */
export async function startMetrics(kernel: Kernel, settings: Settings, metrics: PrometheusMetrics | undefined, logger: Logger): Promise<() => Promise<void>> {
  if (metrics === undefined) return async () => {};
  metrics.watch({ callsInFlight: () => kernel.callsInFlight, bodyBytesInFlight: () => kernel.bodyBytesInFlight }, logger);
  const { MCP_METRICS_HOST: host, MCP_METRICS_PORT: port } = settings.of(MetricsSettings);
  if (port === 0) return async () => {};
  const { serveMetrics } = await import('./metrics-server.js');
  const hostCheck = HostCheck.of(settings, host);
  const scrape = scrapeToken(settings, logger, !isLoopbackHost(host));
  const server = await serveMetrics(metrics, { host, port, scrape, hostCheck, logger });
  return () => server.close();
}
