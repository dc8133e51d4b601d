import type { IncomingMessage, ServerResponse } from 'node:http';

/** What counts the HTTP requests a server answers (PrometheusMetrics). */
export interface HttpRequestCounter {
  httpRequest(route: string, status: number): void;
}

/**
 * The routes the HTTP server has, by path prefix: a request is counted under the one it reached (the plugins'
 * routes under /plugins, or /admin or /identity for a prefix declared there, such as the approvals endpoint's and
 * the linking routes and browser callback), anything else
 * under `other` (a scanner's guesses must not make a label value each).
 */
const ROUTES = ['/mcp', '/healthz', '/metrics', '/artifacts', '/admin', '/identity', '/plugins', '/console', '/.well-known/oauth-protected-resource'];

export function routeLabel(url: string | undefined): string {
  const path = (url ?? '/').split('?', 1)[0]!;
  return ROUTES.find((route) => path === route || path.startsWith(`${route}/`)) ?? 'other';
}

/**
 * Counts a request once its response is done, by route and status; one the client left before any answer was
 * sent counts as 499 (the status proxies log for it).
 */
export function countWhenAnswered(counter: HttpRequestCounter | undefined, request: IncomingMessage, response: ServerResponse): void {
  if (counter === undefined) return;
  response.once('close', () => counter.httpRequest(routeLabel(request.url), response.headersSent ? response.statusCode : 499));
}
