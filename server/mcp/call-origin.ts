import { CLIENT_INFO_META_KEY, type Server } from '@modelcontextprotocol/server';
import type { CallOptions } from '../../core/kernel/kernel.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/identity/principal.js';
import { acceptedRequestId, traceIdOf } from '../../core/kernel/call-span.js';
import type { CallSession, ClientInfo } from '../../core/plugin/call.js';
import type { CorrelationHeaders } from '../http/correlation-headers.js';
import { clientOf } from './session-client.js';

/** What a `tools/call` handler's context offers of where the request came from. */
export interface RequestContext {
  mcpReq: { id: string | number; envelope?: Record<string, unknown> };
  http?: { authInfo?: { extra?: Record<string, unknown> } };
}

/**
 * Who sent a `tools/call` and under which ids, for the kernel (CallOptions):
 * - the trace it continues: the `traceparent` of the request's `_meta` (SEP-414, any transport), else the HTTP
 *   request's `traceparent` header, each with its `tracestate`;
 * - its request id: the HTTP request's X-Request-Id, else that trace's id (the kernel makes one when neither came);
 * - its client: the request's 2026-07-28 envelope (`io.modelcontextprotocol/clientInfo`), else what `initialize`
 *   said on this connection, else `known` (a stateless 2025-era HTTP POST saw no `initialize`: the client its
 *   Mcp-Session-Id or its User-Agent names, session-client.ts).
 */
export function callOrigin(
  server: Server,
  ctx: RequestContext,
  meta: Record<string, unknown> | undefined,
  known?: ClientInfo,
  connection?: () => string,
): Partial<CallOptions> {
  const headers = (ctx.http?.authInfo?.extra?.correlation ?? {}) as CorrelationHeaders;
  const fromMeta = traceIdOf(meta?.traceparent) === undefined ? undefined : carrier(meta!.traceparent, meta!.tracestate);
  const fromHeaders = traceIdOf(headers.traceparent) === undefined ? undefined : carrier(headers.traceparent, headers.tracestate);
  const traceCarrier = fromMeta ?? fromHeaders;
  const requestId = acceptedRequestId(headers.requestId) ?? traceIdOf(traceCarrier?.traceparent);
  const client = clientOf(ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY]) ?? clientOf(server.getClientVersion()) ?? known;
  const session = sessionOf(headers, meta, connection?.());
  return {
    jsonRpcRequestId: ctx.mcpReq.id,
    ...(session === undefined ? {} : { session }),
    ...(traceCarrier === undefined ? {} : { traceCarrier }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(client === undefined ? {} : { client }),
  };
}

/**
 * The conversation a call belongs to, for flow rules: the stdio connection (one agent session), else what a
 * stateless HTTP request names (`X-MCP-Conversation`, or `_meta["mcp-devtools/conversation"]`), else none (the
 * principal's one conversation). A name is kept to 128 visible ASCII characters; others are taken as none.
 */
function sessionOf(headers: CorrelationHeaders, meta: Record<string, unknown> | undefined, connection: string | undefined): CallSession | undefined {
  const named = headers.conversation ?? meta?.['mcp-devtools/conversation'];
  const conversation = connection ?? (typeof named === 'string' && /^[\x21-\x7e]{1,128}$/.test(named) ? named : undefined);
  const lockdown = headers.lockdown === true;
  if (conversation === undefined && !lockdown) return undefined;
  return { ...(conversation === undefined ? {} : { conversation }), ...(lockdown ? { lockdown } : {}) };
}

function carrier(traceparent: unknown, tracestate: unknown): { traceparent: string; tracestate?: string } {
  return { traceparent: String(traceparent).trim(), ...(typeof tracestate === 'string' ? { tracestate } : {}) };
}

/** Who sent a request: the principal the transport's authentication found (`authInfo.extra.principal`), `local` without it. */
export const principalOf = (ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }): Principal =>
  (ctx.http?.authInfo?.extra?.principal as Principal | undefined) ?? LOCAL_PRINCIPAL;
