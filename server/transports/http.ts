import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { noAuthentication, type AuthFailure, type Authenticator } from '../auth/authenticator.js';
import { HostCheck } from '../http/host-check.js';
import type { ProtectedResource } from '../auth/protected-resource.js';
import { publicEndpoint, type PublicEndpoint } from '../auth/public-endpoint.js';
import { readJsonBody } from '../http/json-body.js';
import { INVALID_REQUEST, isJsonRpcPayload } from './json-rpc-shape.js';
import { mcpExchange, type McpExchange } from './mcp-exchange.js';
import { MAX_MESSAGE_BYTES } from '../http/message-limits.js';
import { isLoopbackHost, originAllowed } from '../http/origin-check.js';
import { countWhenAnswered, type HttpRequestCounter } from '../metrics/http-requests.js';

/** Inbound authentication, and the protected resource metadata that goes with it (OIDC). */
export interface HttpAuth {
  authenticator: Authenticator;
  protectedResource?: ProtectedResource;
}

export interface HttpOptions {
  host: string;
  port: number;
  allowedOrigins: readonly string[];
  /** A ready authenticator (no protected resource metadata); off by default. */
  authenticator?: Authenticator;
  /**
   * Authentication opened once the server listens, when its public endpoint is known (the OIDC audience and
   * the metadata name it). `mode` is the MCP_AUTH_MODE it will have: `off` may only listen on loopback.
   */
  auth?: { mode: string; open(endpoint: PublicEndpoint): Promise<HttpAuth> };
  /** MCP_PUBLIC_URL: the URL clients use, behind a proxy; default: the listening address. */
  publicUrl?: string;
  /** The Host names /healthz answers to (HostCheck.of); default: those the options above name. */
  hostCheck?: HostCheck;
  /** Extra routes (admin endpoints); return true when the request was answered. */
  routes?: (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;
  maxBodyBytes?: number;
  /** Counts every request answered, by route and status (the Prometheus metrics, when exposed). */
  requests?: HttpRequestCounter;
  logger: Logger;
}

export interface RunningHttp {
  url: string;
  port: number;
  endpoint: PublicEndpoint;
  close(): Promise<void>;
}

interface Serving {
  options: HttpOptions;
  hostCheck: HostCheck;
  auth: HttpAuth;
  exchange: McpExchange;
}

/**
 * Streamable HTTP at `/mcp`, stateless: every POST gets a fresh SDK server, so no session state lives in the
 * process and any replica behind a load balancer can answer any request (no sticky sessions). Both protocol
 * eras are served (mcp-exchange.ts); /healthz, the Origin check, authentication and the body cap come first.
 */
export async function serveHttp(kernel: Kernel, options: HttpOptions): Promise<RunningHttp> {
  const mode = options.auth?.mode ?? options.authenticator?.mode ?? 'off';
  if (mode === 'off' && !isLoopbackHost(options.host)) {
    throw new StartupError(
      `Refusing to serve HTTP on ${options.host} with MCP_AUTH_MODE=off: anyone who can reach it would act with the server's credentials. Bind to 127.0.0.1 or set MCP_AUTH_MODE=tokens or oidc.`,
    );
  }
  let ready!: (serving: Serving) => void;
  let failed!: (error: unknown) => void;
  const serving = new Promise<Serving>((resolve, reject) => ((ready = resolve), (failed = reject)));
  serving.catch(() => {}); // a start-up failure is thrown by serveHttp itself
  const server = createServer((request, response) => {
    countWhenAnswered(options.requests, request, response);
    // Requests that arrive while authentication is still opening wait for it.
    void serving
      .then((s) => handle(s, request, response))
      .catch((error: unknown) => {
        options.logger.error({ err: error }, 'HTTP request failed');
        if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal server error');
        else response.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new StartupError(listenFailure(options.host, options.port, error))));
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${port}/mcp`;
  let endpoint: PublicEndpoint;
  try {
    endpoint = publicEndpoint(options.publicUrl ?? '', url);
    const auth = options.auth ? await options.auth.open(endpoint) : { authenticator: options.authenticator ?? noAuthentication };
    const hostCheck =
      options.hostCheck ??
      new HostCheck({ bindHost: options.host, publicUrls: [options.publicUrl ?? ''], allowedOrigins: options.allowedOrigins, allowedHosts: [] });
    ready({ options, hostCheck, auth, exchange: mcpExchange(kernel, options.logger) });
  } catch (error) {
    failed(error);
    await closeServer(server);
    throw error;
  }
  options.logger.info({ url, publicUrl: endpoint.resource.href, auth: mode }, 'serving MCP over Streamable HTTP');
  return { url, port, endpoint, close: () => closeServer(server) };
}

async function handle({ options, hostCheck, auth, exchange }: Serving, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?', 1)[0];
  if (path === '/healthz' && request.method === 'GET') {
    // Under a foreign Host (DNS rebinding) not even "ok": a page must not learn that a server listens here.
    if (!hostCheck.allows(request.headers.host)) hostCheck.refuse(response, request.headers.host);
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (auth.protectedResource?.route(request, response)) return;
  if (options.routes && (await options.routes(request, response))) return;
  if (path !== '/mcp') {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found: MCP is served at /mcp"}');
    return;
  }
  if (!originAllowed(request.headers.origin, options.allowedOrigins)) {
    sendJsonRpcError(response, 403, -32000, `Origin ${request.headers.origin} is not allowed; add it to MCP_HTTP_ALLOWED_ORIGINS.`);
    return;
  }
  const outcome = await auth.authenticator.authenticate(request);
  if ('failure' in outcome) {
    const status = outcome.status ?? 401;
    if (status === 401) response.setHeader('www-authenticate', wwwAuthenticate(outcome, auth.protectedResource));
    sendJsonRpcError(response, status, -32001, `${status === 401 ? 'Unauthorized' : 'Unavailable'}: ${outcome.failure}`);
    return;
  }
  if (request.method !== 'POST') {
    // Stateless server: no standalone SSE stream to open and no session to delete.
    response.setHeader('allow', 'POST');
    sendJsonRpcError(response, 405, -32000, 'Method not allowed: this server is stateless; send JSON-RPC with POST.');
    return;
  }
  const body = await readJsonBody(request, options.maxBodyBytes ?? MAX_MESSAGE_BYTES);
  if (!body.ok) {
    sendJsonRpcError(response, body.status, body.code, body.message);
    return;
  }
  if (!isJsonRpcPayload(body.value)) {
    // The SDK would call this a parse error (-32700); it parsed fine, and JSON-RPC names it -32600.
    sendJsonRpcError(response, 400, -32600, `${INVALID_REQUEST}.`);
    return;
  }
  await exchange(request, response, body.value, outcome.principal);
}

/**
 * RFC 6750: no error code when no credentials were sent, `invalid_token` when they were and failed; with
 * protected resource metadata (OIDC), where to find it (RFC 9728 5.1), so the client can get a token.
 */
function wwwAuthenticate(failure: AuthFailure, resource: ProtectedResource | undefined): string {
  const parameters = ['realm="mcp-devtools"'];
  if (resource !== undefined) parameters.push(resource.challengeParameter);
  if (!failure.missing) parameters.push('error="invalid_token"', `error_description="${failure.failure.replace(/["\\]/g, "'")}"`);
  return `Bearer ${parameters.join(', ')}`;
}

export function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function closeServer(server: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** Why the port could not be taken, and the setting (and flag) that changes it. */
function listenFailure(host: string, port: number, error: NodeJS.ErrnoException): string {
  const at = `Cannot listen on ${host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `${at}: the port is already in use (EADDRINUSE). Stop what uses it, or choose another port with MCP_HTTP_PORT (--port).`;
    case 'EACCES':
      return `${at}: this user may not use that port (EACCES; ports below 1024 need privileges). Choose another with MCP_HTTP_PORT (--port).`;
    case 'EADDRNOTAVAIL':
      return `${at}: no interface of this machine has that address (EADDRNOTAVAIL). Bind another with MCP_HTTP_HOST (--host).`;
    default:
      return `${at} (MCP_HTTP_HOST, MCP_HTTP_PORT): ${error.code ?? error.message}`;
  }
}
