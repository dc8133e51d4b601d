import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import { adminTokenCheck } from '../admin/admin-token.js';
import type { HostCheck } from '../http/host-check.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

export type Route = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

export interface MetricsAccess {
  /**
   * Whether a scrape must send MCP_ADMIN_TOKEN: when callers must authenticate, or the port is reachable
   * beyond loopback. Otherwise (a loopback server without authentication) /metrics is open, like /mcp.
   */
  requireAdminToken: boolean;
  adminToken: string;
  /** The names this server answers to: a scrape sent under another (a DNS-rebinding page) is refused first. */
  hostCheck: HostCheck;
  logger: Logger;
}

/** `GET /metrics`: the Prometheus text format. */
export function metricsRoute(metrics: PrometheusMetrics, access: MetricsAccess): Route {
  const isAdmin = adminTokenCheck(access.adminToken, access.logger);
  return async (request, response) => {
    if ((request.url ?? '/').split('?', 1)[0] !== '/metrics') return false;
    if (!access.hostCheck.allows(request.headers.host)) {
      access.hostCheck.refuse(response, request.headers.host);
      return true;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, { error: 'Scrape /metrics with GET.' }, { allow: 'GET, HEAD' });
      return true;
    }
    if (access.requireAdminToken && access.adminToken === '') {
      send(response, 403, {
        error: 'GET /metrics needs MCP_ADMIN_TOKEN here (callers must authenticate): set it, and scrape with Authorization: Bearer $MCP_ADMIN_TOKEN.',
      });
      return true;
    }
    if (access.requireAdminToken && !isAdmin(request)) {
      send(
        response,
        401,
        { error: 'Send the admin token: Authorization: Bearer $MCP_ADMIN_TOKEN.' },
        { 'www-authenticate': 'Bearer realm="mcp-devtools-metrics"' },
      );
      return true;
    }
    let exposition;
    try {
      exposition = await metrics.exposition();
    } catch (error) {
      // Under --workers: one worker's figures alone would read as a counter reset; a failed scrape is a gap.
      access.logger.warn({ err: (error as Error).message }, 'metrics scrape failed');
      send(response, 503, { error: `The metrics could not be gathered (${(error as Error).message}); scrape again.` });
      return true;
    }
    response.writeHead(200, { 'content-type': exposition.contentType }).end(request.method === 'HEAD' ? undefined : exposition.body);
    return true;
  };
}

/** The first route that answers, for the HTTP transport's one `routes` hook. */
export function anyOf(...routes: ReadonlyArray<Route | undefined>): Route {
  const present = routes.filter((r): r is Route => r !== undefined);
  return async (request, response) => {
    for (const route of present) if (await route(request, response)) return true;
    return false;
  };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
