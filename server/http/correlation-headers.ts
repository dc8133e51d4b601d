import type { IncomingMessage } from 'node:http';

/**
 * What an HTTP request says of the request it belongs to: the id a gateway or the client gave it (X-Request-Id)
 * and the W3C trace context it carries (traceparent, tracestate). As sent; the MCP server checks them before any
 * is used (server/mcp/call-origin.ts). Over stdio there are no headers: a request's `_meta` may carry a traceparent.
 */
export interface CorrelationHeaders {
  requestId?: string;
  traceparent?: string;
  tracestate?: string;
  /** `X-MCP-Conversation`: the conversation a stateless request belongs to (flow rules' session). */
  conversation?: string;
  /** `X-MCP-Lockdown: true`: lockdown for this request (it can only tighten the operator's setting). */
  lockdown?: boolean;
}

/** The correlation headers of a request; a header sent more than once is taken as absent. */
export function correlationHeaders(request: IncomingMessage): CorrelationHeaders {
  const one = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const found: CorrelationHeaders = {};
  const requestId = one('x-request-id');
  const traceparent = one('traceparent');
  const tracestate = one('tracestate');
  if (requestId !== undefined) found.requestId = requestId;
  if (traceparent !== undefined) found.traceparent = traceparent;
  if (tracestate !== undefined) found.tracestate = tracestate;
  const conversation = one('x-mcp-conversation');
  if (conversation !== undefined) found.conversation = conversation;
  // Anything but an explicit false asks for lockdown: a header that was meant to tighten never loosens.
  const lockdown = one('x-mcp-lockdown');
  if (lockdown !== undefined && lockdown.trim().toLowerCase() !== 'false') found.lockdown = true;
  return found;
}
