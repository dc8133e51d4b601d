import type { Settings } from '../../core/config/settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { PluginClass } from '../../core/plugin/metadata.js';
import type { Authenticator } from '../auth/authenticator.js';
import { ConsoleSettings } from '../console/console-settings.js';
import { HostCheck } from '../http/host-check.js';
import { anyOf, type Route } from '../http/route.js';
import { metricsRoute } from '../metrics/metrics-route.js';
import { MetricsSettings } from '../metrics/metrics-settings.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import type { ScrapeToken } from '../metrics/scrape-token.js';
import { kernelArtifactDownloads } from './artifact-download.js';
import { declaredRoutes, mountPluginRoutes } from './plugin-routes.js';

/**
 * The routes the HTTP transport serves beside /mcp and /healthz: artifact downloads, the routes the plugins
 * contribute (each at its prefix, behind the Host check and the server's authentication: plugin-routes.ts), the
 * console (MCP_CONSOLE=true, loaded only then, with the pages the plugins contribute) and /metrics, open like /mcp
 * on a loopback server without authentication, and otherwise only to scrapes that send MCP_METRICS_TOKEN; either
 * way only under a Host name that is the server's (HostCheck: no DNS-rebinding page reads it). `scrape` and the
 * authenticator come from separateCredentials: one credential per job.
 */
export async function httpRoutes(
  kernel: Kernel,
  plugins: readonly PluginClass[],
  authenticator: Authenticator,
  metrics: PrometheusMetrics | undefined,
  logger: Logger,
  scrape: ScrapeToken,
): Promise<Route> {
  const settings: Settings = kernel.settings;
  const hostCheck = HostCheck.of(settings, settings.of(CoreSettings).MCP_HTTP_HOST);
  const credentials = {
    adminToken: settings.of(CoreSettings).MCP_ADMIN_TOKEN,
    metricsToken: settings.of(MetricsSettings).MCP_METRICS_TOKEN,
    authenticator,
    logger,
  };
  const contributed = await mountPluginRoutes(declaredRoutes(plugins), kernel, { credentials, hostCheck, logger });
  const requireToken = authenticator.mode !== 'off';
  const scrapes = metrics === undefined ? undefined : metricsRoute(metrics, { requireToken, scrape, hostCheck, logger });
  const others = anyOf(kernelArtifactDownloads(kernel, authenticator, logger), contributed, scrapes);
  if (!settings.of(ConsoleSettings).MCP_CONSOLE) return others;
  const { withConsole } = await import('../console/mount.js');
  return withConsole(kernel, plugins, authenticator, hostCheck, logger, others);
}
