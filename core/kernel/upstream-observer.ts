import { propagation, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
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
import { isToolError } from '../errors/tool-error.js';
import type { Call } from '../plugin/call.js';
import type { ObserveRequest, PreparedRequest, RequestEnd, UpstreamIdentity, UpstreamResponse } from '../plugin/upstream-types.js';
import type { UpstreamInterceptor } from '../plugin/tool-context.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Scrub } from '../result/secret-scrubber.js';

/** A call's last upstream exchange as its tool saw it (through the HTTP cache): for the call's log line. */
export interface UpstreamObservation {
  request: PreparedRequest;
  /** The HTTP status the tool got, or that its error carried; absent when no answer came. */
  status?: number;
  /** Whether the HTTP cache answered; absent for requests that do not go through it. */
  cacheHit?: boolean;
}

/**
 * The two interceptors the kernel puts around a call's requests (pipeline.ts places them): `call-observer`, outside
 * the HTTP cache, records what the tool got, a cache hit included; `request-counter`, next to the network,
 * counts the requests that reach it (a revalidation is one, a cache hit is none), by HTTP status and outcome.
 */
export function observingInterceptors(
  record: (seen: UpstreamObservation) => void,
  metrics: Metrics,
): Record<'call-observer' | 'request-counter', UpstreamInterceptor> {
  const outer: UpstreamInterceptor = {
    name: 'call-observer',
    run: async (request, _exchange, next) => {
      try {
        const response = await next();
        record({ request, status: response.status, ...(response.cache === undefined ? {} : { cacheHit: response.cache.hit }) });
        return response;
      } catch (error) {
        record({ request, ...(isToolError(error) && error.status !== undefined ? { status: error.status } : {}) });
        throw error;
      }
    },
  };
  const inner: UpstreamInterceptor = {
    name: 'request-counter',
    run: async (_request, exchange, next) => {
      let response: UpstreamResponse;
      try {
        response = await next();
      } catch (error) {
        // The HTTP status apart from how the request ended: a 503 is status 503, outcome upstream_server_error.
        const status = isToolError(error) && error.status !== undefined ? String(error.status) : 'none';
        metrics.upstreamRequest(exchange.identity.vendor, status, isToolError(error) ? error.code : 'tool_failed');
        throw error;
      }
      metrics.upstreamRequest(exchange.identity.vendor, String(response.status), 'ok');
      return response;
    },
  };
  return { 'call-observer': outer, 'request-counter': inner };
}

/**
 * The observer of each request a call's upstream client puts on the network, each retry its own: its duration
 * into the upstream latency histogram (by vendor, method and status class), its HTTP client span under the
 * call's (its URL scrubbed of configured secrets, as log lines are), the trace context it carries to the vendor,
 * and the vendor's own id for it (`vendorRequestId`).
 */
export function requestObserver(call: Call, { metrics, scrub }: { metrics: Metrics; scrub: Scrub }, vendorRequestId: (id: string) => void): ObserveRequest {
  return (request, identity, attempt) => {
    const started = performance.now();
    const span = startUpstreamSpan(call.traceContext, request, identity, attempt, scrub);
    let ended = false;
    return {
      headers: span === undefined ? {} : traceHeaders(call.traceContext, span),
      end: (how) => {
        if (ended) return;
        ended = true;
        metrics.upstreamDuration(identity.vendor, request.method, statusClass(how), (performance.now() - started) / 1000);
        if ('headers' in how) {
          const id = vendorIdOf(how.headers);
          if (id !== undefined) vendorRequestId(id);
        }
        if (span !== undefined) endUpstreamSpan(span, how);
      },
    };
  };
}

/** `2xx` to `5xx`; without a status, why none came: what an alert on slow or failing vendors groups by. */
export function statusClass(how: RequestEnd): string {
  const status = 'status' in how ? how.status : how.error.status;
  if (status !== undefined) return `${Math.floor(status / 100)}xx`;
  const code = (how as { error: { code: string } }).error.code;
  return NO_STATUS[code] ?? 'error';
}

const NO_STATUS: Readonly<Record<string, string>> = { upstream_timeout: 'timeout', upstream_unreachable: 'unreachable', cancelled: 'cancelled' };

/**
 * The headers vendors name their own id of a request in (GitHub's X-GitHub-Request-Id, Atlassian's ATL-TraceId and
 * X-AREQUESTID, X-Request-Id where a vendor or a gateway in front of it answers with one), in that order.
 */
const VENDOR_ID_HEADERS = ['x-github-request-id', 'atl-traceid', 'x-arequestid', 'x-request-id'];

function vendorIdOf(headers: Headers): string | undefined {
  for (const name of VENDOR_ID_HEADERS) {
    const value = headers.get(name);
    // Bounded: a header value is the vendor's to make as long as it likes.
    if (value !== null && value !== '') return value.slice(0, 128);
  }
  return undefined;
}

// The span of each request, as the observer starts and ends it.
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
  // Its attributes are made only for a span that records (scrubbing the URL for none was work on every request).
  const span = childSpan(parent, request.method, () => ({
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_HTTP_REQUEST_METHOD]: request.method,
      [ATTR_URL_FULL]: scrub(urlWithoutQueryValues(url)),
      [ATTR_SERVER_ADDRESS]: url.hostname,
      [ATTR_SERVER_PORT]: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
      [ATTR_VENDOR]: identity.vendor,
      ...(attempt > 0 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: attempt } : {}),
    },
  }));
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
