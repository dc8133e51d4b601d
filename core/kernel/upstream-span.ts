import { propagation, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import type { PreparedRequest, RequestEnd, UpstreamIdentity } from '../plugin/upstream-types.js';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  ATTR_VENDOR,
} from '../metrics/span-attributes.js';
import { childSpan, markFailed } from '../metrics/tracing.js';

/**
 * The span of one request to a vendor, as OpenTelemetry's stable HTTP conventions describe a client request:
 * named by its method, of kind CLIENT, a retry its own span with `http.request.resend_count`. `url.full` keeps the
 * query's names but not its values (a JQL, a search term), as the call line does, and `scrub` takes out any
 * configured secret a path holds. None when the call's span records nothing.
 */
export function startUpstreamSpan(
  parent: Context,
  request: PreparedRequest,
  identity: UpstreamIdentity,
  attempt: number,
  scrub: (text: string) => string,
): Span | undefined {
  const { url } = request;
  const span = childSpan(parent, request.method, {
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_HTTP_REQUEST_METHOD]: request.method,
      [ATTR_URL_FULL]: scrub(urlWithoutQueryValues(url)),
      [ATTR_SERVER_ADDRESS]: url.hostname,
      [ATTR_SERVER_PORT]: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
      [ATTR_VENDOR]: identity.vendor,
      ...(attempt > 0 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: attempt } : {}),
    },
  });
  return span;
}

/** The trace context the vendor gets (`traceparent`, and `tracestate` when there is one): its spans join the trace. */
export function traceHeaders(parent: Context, span: Span): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(parent, span), headers);
  return headers;
}

/**
 * Ends a request's span: the status that came back, failed from 400 on (a client span's rule) with the status as
 * `error.type`; a request that got no status, failed with its error code (`upstream_timeout`).
 */
export function endUpstreamSpan(span: Span, how: RequestEnd): void {
  const status = 'status' in how ? how.status : how.error.status;
  if (status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if ('error' in how && status === undefined) markFailed(span, how.error.code);
  else if (status !== undefined && status >= 400) markFailed(span, String(status));
  span.end();
}

/** The URL with every query value replaced: names say what was asked, values may hold what must not leave. */
export function urlWithoutQueryValues(url: URL): string {
  const base = `${url.origin}${url.pathname}`;
  if (url.search === '') return base;
  return `${base}?${[...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=REDACTED`).join('&')}`;
}
