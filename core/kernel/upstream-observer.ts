import { isToolError } from '../errors/tool-error.js';
import type { PreparedRequest, UpstreamResponse } from '../plugin/upstream-types.js';
import type { UpstreamInterceptor } from '../plugin/tool-context.js';
import type { Metrics } from '../metrics/metrics.js';

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
 * counts the requests that reach it (a revalidation is one, a cache hit is none).
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
        const status = isToolError(error) ? (error.status?.toString() ?? error.code) : 'error';
        metrics.upstreamRequest(exchange.identity.vendor, status);
        throw error;
      }
      metrics.upstreamRequest(exchange.identity.vendor, String(response.status));
      return response;
    },
  };
  return { 'call-observer': outer, 'request-counter': inner };
}
