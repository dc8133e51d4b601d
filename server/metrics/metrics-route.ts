import type { ServerResponse } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import { logAuthFailure } from '../auth/auth-failure-log.js';
import { bearerToken } from '../auth/authenticator.js';
import { staticToken } from '../auth/static-token.js';
import type { HostCheck } from '../http/host-check.js';
import type { Route } from '../http/route.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';
import type { ScrapeToken } from './scrape-token.js';

export interface MetricsAccess {
  /**
   * Whether a scrape must send the scrape token: when callers must authenticate, or the port is reachable
   * beyond loopback. Otherwise (a loopback server without authentication) /metrics is open, like /mcp.
   */
  requireToken: boolean;
  /** MCP_METRICS_TOKEN (or, until 0.4.0 and without it, MCP_ADMIN_TOKEN): the one token a scrape may send. */
  scrape: ScrapeToken;
  /** The names this server answers to: a scrape sent under another (a DNS-rebinding page) is refused first. */
  hostCheck: HostCheck;
  logger: Logger;
}

/** `GET /metrics`: the Prometheus text format. */
export function metricsRoute(metrics: PrometheusMetrics, access: MetricsAccess): Route {
  const isScrapeToken = staticToken(access.scrape.token);
  const setting = access.scrape.setting;
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
    if (access.requireToken && access.scrape.token === '') {
      send(response, 403, {
        error: 'GET /metrics needs MCP_METRICS_TOKEN here (callers must authenticate): set it, and scrape with Authorization: Bearer $MCP_METRICS_TOKEN.',
      });
      return true;
    }
    if (access.requireToken) {
      const bearer = bearerToken(request);
      if (!('token' in bearer) || !isScrapeToken(bearer.token)) {
        logAuthFailure(access.logger, request, 'token' in bearer ? `the bearer token is not ${setting}.` : bearer.failure, 401);
        send(
          response,
          401,
          { error: `Send the metrics token: Authorization: Bearer $${setting}.` },
          { 'www-authenticate': 'Bearer realm="mcp-devtools-metrics"' },
        );
        return true;
      }
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

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
