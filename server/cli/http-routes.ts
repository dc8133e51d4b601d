import type { Settings } from '../../core/config/settings.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { ApprovalStore } from '../../plugins/policy/index.js';
import { POLICY_TOKENS } from '../../plugins/policy/index.js';
import { kernelArtifactDownloads } from '../http/artifact-download.js';
import { HostCheck } from '../http/host-check.js';
import { anyOf, metricsRoute, type Route } from '../metrics/metrics-route.js';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import { ConsoleSettings } from '../console/console-settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';

/**
 * The routes the HTTP transport serves beside /mcp and /healthz: artifact downloads, the approvals console (MCP_CONSOLE=true, loaded
 * only then), the approvals admin endpoint (when the policy plugin runs) and /metrics, open like /mcp on a
 * loopback server without authentication, and otherwise only to scrapes that send MCP_ADMIN_TOKEN; either way only
 * under a Host name that is the server's (HostCheck: no DNS-rebinding page reads it).
 */
export async function httpRoutes(
  kernel: Kernel,
  settings: Settings,
  authenticator: Authenticator,
  metrics: PrometheusMetrics | undefined,
  logger: Logger,
): Promise<Route> {
  const adminToken = settings.of(CoreSettings).MCP_ADMIN_TOKEN;
  let admin: Route | undefined;
  if (kernel.plugins.includes('policy')) {
    const { approvalRoutes } = await import('../admin/approval-routes.js');
    admin = approvalRoutes(kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals), adminToken, logger);
  }
  const hostCheck = HostCheck.of(settings, settings.of(CoreSettings).MCP_HTTP_HOST);
  const scrape = metrics === undefined ? undefined : metricsRoute(metrics, { requireAdminToken: authenticator.mode !== 'off', adminToken, hostCheck, logger });
  const others = anyOf(kernelArtifactDownloads(kernel, authenticator, logger), admin, scrape);
  if (!settings.of(ConsoleSettings).MCP_CONSOLE) return others;
  const { withConsole } = await import('../console/mount.js');
  return withConsole(kernel, authenticator, logger, others) as Route;
}
