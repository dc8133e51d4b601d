import type { Logger } from '../../core/logging/logger.js';
import { adminRoutes } from '../../plugins/policy/admin/approval-routes.js';
import type { ApprovalStore } from '../../plugins/policy/approvals/approval-store.js';
import { POLICY_CONTRIBUTIONS } from '../../plugins/policy/contributions.js';
import type { Authenticator } from '../../server/auth/authenticator.js';
import { HostCheck } from '../../server/http/host-check.js';
import type { Route } from '../../server/http/route.js';
import { servePluginRoutes } from '../../server/routes/plugin-routes.js';

export interface AdminCredentials {
  adminToken: string;
  metricsToken: string;
  authenticator: Authenticator;
  logger: Logger;
}

/**
 * The approvals admin endpoint over one approvals store, mounted as the server mounts the policy plugin's route
 * (its declared prefix and access, the server's Host check and authentication), for a test's own HTTP server.
 */
export function adminEndpoint(approvals: ApprovalStore, credentials: AdminCredentials): Route {
  const route = POLICY_CONTRIBUTIONS.routes![0]!;
  const hostCheck = new HostCheck({ bindHost: '127.0.0.1', publicUrls: [], allowedOrigins: [], allowedHosts: [] });
  return servePluginRoutes([{ plugin: 'policy', prefix: route.prefix!, route, handler: adminRoutes(approvals, credentials.logger) }], {
    credentials,
    hostCheck,
    logger: credentials.logger,
  });
}
