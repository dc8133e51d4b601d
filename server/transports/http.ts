import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { noAuthentication, type AuthFailure, type Authenticator } from '../auth/authenticator.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { readJsonBody } from './json-body.js';
import { INVALID_REQUEST, isJsonRpcPayload } from './json-rpc-shape.js';
import { MAX_MESSAGE_BYTES } from './message-limits.js';
import { isLoopbackHost, originAllowed } from './origin-check.js';

export interface HttpOptions {
  host: string;
  port: number;
  allowedOrigins: readonly string[];
  authenticator?: Authenticator;
  /** Extra routes (admin endpoints); return true when the request was answered. */
  routes?: (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;
  maxBodyBytes?: number;
  logger: Logger;
}

export interface RunningHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}


/**
 * Streamable HTTP at `/mcp`, stateless: every POST gets a fresh SDK server and transport, so no session state
 * lives in the process and any replica behind a load balancer can answer any request (no sticky sessions).
 */
export async function serveHttp(kernel: Kernel, options: HttpOptions): Promise<RunningHttp> {
  const authenticator = options.authenticator ?? noAuthentication;
  if (authenticator.mode === 'off' && !isLoopbackHost(options.host)) {
    throw new StartupError(`Refusing to serve HTTP on ${options.host} with MCP_AUTH_MODE=off: anyone who can reach it would act with the server's credentials. Bind to 127.0.0.1 or set MCP_AUTH_MODE=tokens or oidc.`);
  }
  const server = createServer((request, response) => {
    handle(kernel, options, authenticator, request, response).catch((error: unknown) => {
      options.logger.error({ err: error }, 'HTTP request failed');
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal server error');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new StartupError(`Cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`)));
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${port}/mcp`;
  options.logger.info({ url, auth: authenticator.mode }, 'serving MCP over Streamable HTTP');
  return { url, port, close: () => closeServer(server) };
}

async function handle(kernel: Kernel, options: HttpOptions, authenticator: Authenticator, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?', 1)[0];
  if (path === '/healthz' && request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (options.routes && (await options.routes(request, response))) return;
  if (path !== '/mcp') {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found: MCP is served at /mcp"}');
    return;
  }
  if (!originAllowed(request.headers.origin, options.allowedOrigins)) {
    sendJsonRpcError(response, 403, -32000, `Origin ${request.headers.origin} is not allowed; add it to MCP_HTTP_ALLOWED_ORIGINS.`);
    return;
  }
  const auth = await authenticator.authenticate(request);
  if ('failure' in auth) {
    const status = auth.status ?? 401;
    if (status === 401) response.setHeader('www-authenticate', wwwAuthenticate(auth));
    sendJsonRpcError(response, status, -32001, `${status === 401 ? 'Unauthorized' : 'Unavailable'}: ${auth.failure}`);
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
  (request as IncomingMessage & { auth?: unknown }).auth = { token: '', clientId: auth.principal.subject, scopes: [], extra: { principal: auth.principal } };
  const header = request.headers['mcp-protocol-version'];
  const mcp = createMcpServer(kernel, { protocolVersion: typeof header === 'string' ? header : undefined });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(request, response, body.value);
}

/** RFC 6750: no error code when no credentials were sent, `invalid_token` when they were and failed. */
function wwwAuthenticate(failure: AuthFailure): string {
  if (failure.missing) return 'Bearer realm="mcp-devtools"';
  return `Bearer realm="mcp-devtools", error="invalid_token", error_description="${failure.failure.replace(/["\\]/g, "'")}"`;
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
