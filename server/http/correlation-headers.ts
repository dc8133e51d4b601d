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
  return found;
}
