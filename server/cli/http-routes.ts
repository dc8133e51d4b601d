import type { Settings } from '../../core/config/settings.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { ApprovalStore } from '../../plugins/policy/index.js';
import { POLICY_TOKENS } from '../../plugins/policy/index.js';
import { kernelArtifactDownloads } from '../http/artifact-download.js';
import { HostCheck } from '../http/host-check.js';
import { anyOf, metricsRoute, type Route } from '../metrics/metrics-route.js';
import { MetricsSettings } from '../metrics/metrics-settings.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import type { ScrapeToken } from '../metrics/scrape-token.js';
import { ConsoleSettings } from '../console/console-settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';

/**
 * The routes the HTTP transport serves beside /mcp and /healthz: artifact downloads, the approvals console (MCP_CONSOLE=true, loaded
 * only then), the approvals admin endpoint (when the policy plugin runs) and /metrics, open like /mcp on a
 * loopback server without authentication, and otherwise only to scrapes that send MCP_METRICS_TOKEN; either way only
 * under a Host name that is the server's (HostCheck: no DNS-rebinding page reads it). `scrape` and the
 * authenticator come from separateCredentials: one credential per job.
 */
export async function httpRoutes(
  kernel: Kernel,
  settings: Settings,
  authenticator: Authenticator,
  metrics: PrometheusMetrics | undefined,
  logger: Logger,
  scrape: ScrapeToken,
): Promise<Route> {
  const adminToken = settings.of(CoreSettings).MCP_ADMIN_TOKEN;
  const approvals = kernel.plugins.includes('policy') ? kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals) : undefined;
  const requireToken = authenticator.mode !== 'off';
  let admin: Route | undefined;
  if (approvals !== undefined) {
    const { approvalRoutes } = await import('../admin/approval-routes.js');
    admin = approvalRoutes(approvals, { adminToken, metricsToken: settings.of(MetricsSettings).MCP_METRICS_TOKEN, authenticator, logger });
  }
  const hostCheck = HostCheck.of(settings, settings.of(CoreSettings).MCP_HTTP_HOST);
  const scrapes = metrics === undefined ? undefined : metricsRoute(metrics, { requireToken, scrape, hostCheck, logger });
  const others = anyOf(kernelArtifactDownloads(kernel, authenticator, logger), admin, scrapes);
  if (!settings.of(ConsoleSettings).MCP_CONSOLE) return others;
  const { withConsole } = await import('../console/mount.js');
  return withConsole(kernel, authenticator, logger, others) as Route;
}
