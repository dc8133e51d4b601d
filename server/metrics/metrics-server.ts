import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Logger } from '../../core/logging/logger.js';
import type { HostCheck } from '../http/host-check.js';
import { isLoopbackHost } from '../http/origin-check.js';
import { metricsRoute } from './metrics-route.js';
import { countWhenAnswered } from './http-requests.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';
import type { ScrapeToken } from './scrape-token.js';

export interface MetricsServerOptions {
  host: string;
  port: number;
  /** The token scrapes send beyond loopback (scrape-token.ts). */
  scrape: ScrapeToken;
  /** The names this server answers to (HostCheck.of with MCP_METRICS_HOST). */
  hostCheck: HostCheck;
  logger: Logger;
}

/**
 * MCP_METRICS_PORT: /metrics on a port of its own, for a server whose MCP goes over stdio. Open on loopback;
 * bound beyond it, only to scrapes that send MCP_METRICS_TOKEN (and it will not start without one). Either way
 * only under a Host name that is the server's (HostCheck).
 */
export async function serveMetrics(metrics: PrometheusMetrics, options: MetricsServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const requireToken = !isLoopbackHost(options.host);
  if (requireToken && options.scrape.token === '') {
    throw new StartupError(
      `MCP_METRICS_HOST=${options.host} is reachable beyond this machine: set MCP_METRICS_TOKEN (scrapes then send it as a bearer token), or bind the metrics to 127.0.0.1.`,
    );
  }
  const route = metricsRoute(metrics, { requireToken, scrape: options.scrape, hostCheck: options.hostCheck, logger: options.logger });
  const server = createServer((request, response) => {
    countWhenAnswered(metrics, request, response);
    route(request, response)
      .then((answered) => {
        if (!answered) response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"metrics are served at /metrics"}');
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, 'metrics request failed');
        if (!response.headersSent) response.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new StartupError(`Cannot serve metrics on ${options.host}:${options.port} (MCP_METRICS_PORT): ${error.code ?? error.message}`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/metrics`;
  options.logger.info({ url }, `metrics at ${url}`);
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
