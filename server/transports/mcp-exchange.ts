import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyInboundRequest, createMcpHandler, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Principal } from '../../core/identity/principal.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { principalLogLevels, type ClientLogLevels } from '../mcp/client-log-levels.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { correlationHeaders } from '../http/correlation-headers.js';
import { sendWebResponse, webRequestOf } from './web-exchange.js';
import { clientOfRequest, sessionIdFor } from '../mcp/session-client.js';

/** Serves one JSON-RPC POST to /mcp, already authenticated and parsed, in the era its body claims. */
export type McpExchange = (request: IncomingMessage, response: ServerResponse, body: unknown, principal: Principal) => Promise<void>;

/**
 * Both eras over stateless Streamable HTTP. The SDK classifies each POST from its body and headers: a request
 * carrying the 2026-07-28 `_meta` envelope goes to the SDK's entry (createMcpHandler), which checks the
 * required `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers against the body and serves it on a
 * fresh server; everything else (`initialize`, 2025-era requests, batches) is served the 2025 way, on a fresh
 * server and transport per POST answering plain JSON, with the revision its `MCP-Protocol-Version` names.
 */
export function mcpExchange(kernel: Kernel, logger: Logger): McpExchange {
  const onerror = (error: Error): void => logger.debug({ err: error }, 'Streamable HTTP request refused or failed');
  // 2026-07-28 clients hear of a changed tool list (dynamic toolsets) on their subscriptions/listen streams.
  const modern: ReturnType<typeof createMcpHandler> = createMcpHandler(() => createMcpServer(kernel, { toolsChanged: () => modern.notify.toolsChanged() }), {
    legacy: 'reject',
    onerror,
  });
  const levels = principalLogLevels(kernel.resolve<KeyValueStore>(TOKENS.Store));
  return async (request, response, body, principal) => {
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const protocolVersionHeader = header('mcp-protocol-version');
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader,
      mcpMethodHeader: header('mcp-method'),
      mcpNameHeader: header('mcp-name'),
      body,
    });
    const webRequest = webRequestOf(request, response, `http://${request.headers.host ?? 'localhost'}${request.url ?? '/mcp'}`);
    // The principal, and the request id and trace context the headers carry, reach the MCP server's handlers here.
    const authInfo: AuthInfo = { token: '', clientId: principal.subject, scopes: [], extra: { principal, correlation: correlationHeaders(request) } };
    if (route.kind !== 'legacy') {
      await sendWebResponse(await modern.fetch(webRequest, { authInfo, parsedBody: body }), response);
      return;
    }
    const logLevels = readOnce(levels);
    const client = clientOfRequest(header('mcp-session-id'), header('user-agent'));
    const mcp = createMcpServer(kernel, { protocolVersion: protocolVersionHeader, logLevels, ...(client && { client }) });
    // The answer to `initialize` hands out a session id that carries the client's name and version: stateless, the
    // next POSTs are served by other instances (or replicas), which read them back from it.
    const sessionId = sessionIdFor(body);
    if (sessionId !== undefined) response.setHeader('mcp-session-id', sessionId);
    // Plain JSON, unless notifications may come before the result: then an SSE stream carries them, then it.
    const enableJsonResponse = !(await sendsNotifications(body, () => logLevels.get(principal)));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
    const teardown = (): void => {
      void transport.close().catch(() => {});
      void mcp.close().catch(() => {});
    };
    // A client that leaves mid-call cancels it: closing the server aborts its handlers' signals.
    webRequest.signal.addEventListener('abort', teardown, { once: true });
    try {
      await mcp.connect(transport);
      await sendWebResponse(await transport.handleRequest(webRequest, { authInfo, parsedBody: body }), response);
    } finally {
      teardown();
    }
  };
}

/**
 * Whether a 2025-era POST is a tools/call that may send notifications before its result: it asked for progress
 * (`_meta.progressToken`), or its principal asked for log messages (`logging/setLevel`). They go on the
 * request's own stream, which a JSON answer does not have. (The 2026-07-28 entry opens the stream by itself
 * when a notification comes first.)
 */
async function sendsNotifications(body: unknown, logLevel: () => Promise<unknown>): Promise<boolean> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
  if (method !== 'tools/call') return false;
  const token = params?._meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' || (await logLevel()) !== undefined;
}

/** The levels of one POST: the principal's level is read from the store at most once (the exchange and the call both ask). */
function readOnce(levels: ClientLogLevels): ClientLogLevels {
  let read: ReturnType<ClientLogLevels['get']> | undefined;
  return { get: (principal) => (read ??= levels.get(principal)), set: (principal, level) => levels.set(principal, level) };
}
