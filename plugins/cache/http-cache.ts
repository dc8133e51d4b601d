import type { PreparedRequest, UpstreamResponse } from '../../core/plugin/upstream-types.js';
import type { InterceptContext, UpstreamInterceptor } from '../../core/plugin/tool-context.js';
import type { Logger } from '../../core/logging/logger.js';
import type { CacheLookupResult, Metrics } from '../../core/metrics/metrics.js';
import type { ToolSpec } from '../../core/plugin/contract.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { cacheKey, entryFrom, isCacheEntry, refreshedEntry, responseFrom, type CacheEntry } from './cache-entry.js';
import { freshnessOf, type CacheLimits } from './cache-control.js';
import { isStatusPath } from './status-paths.js';

const NAMESPACE = 'http-cache';

export interface HttpCacheOptions {
  store: KeyValueStore;
  clock: Clock;
  logger: Logger;
  limits: CacheLimits;
  /** Bodies larger than this (HTTP_CACHE_MAX_BYTES) are not stored. */
  maxBytes: number;
  /** Counts each lookup by its result. */
  metrics: Metrics;
}

type Lookup = { failed: false; entry: CacheEntry | undefined } | { failed: true };

/** A GraphQL query to its endpoint: a read, cached like a GET by its document, variables and operation name. */
function isGraphqlQuery(request: Pick<PreparedRequest, 'method' | 'graphql'> | undefined): boolean {
  return request?.method === 'POST' && request.graphql?.operation === 'query';
}

/** A GraphQL server answers 200 for a query it refused (`errors`): such an answer is never kept. */
function hasGraphqlErrors(response: UpstreamResponse): boolean {
  const errors = (response.body as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors) && errors.length > 0;
}

/**
 * The HTTP cache, around the upstream GETs (and GraphQL queries) of tools that declare `cache: true`. Fresh entries are served
 * without a request; stale ones with an ETag are revalidated (`If-None-Match`; a 304 refreshes the entry and
 * is served as a hit); only 200 answers are stored, never errors and never status paths. A store that fails
 * is logged and bypassed: the cache can slow a call down, never fail it. A `fresh: true` argument skips
 * the read, and the fresh answer replaces the entry.
 */
export class HttpCache implements UpstreamInterceptor {
  readonly name = 'http-cache';
  // Inside the observer, so a hit is timed and traced as the call's request; outside the counter, so only
  // what really leaves is counted.
  readonly after = ['kernel/call-observer'];
  readonly before = ['kernel/request-counter'];

  constructor(private readonly options: HttpCacheOptions) {}

  appliesTo(tool: ToolSpec): boolean {
    return tool.cache === true;
  }

  async run(request: PreparedRequest, exchange: InterceptContext, next: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
    const query = isGraphqlQuery(request);
    if ((request.method !== 'GET' && !query) || isStatusPath(exchange.identity.vendor, request.path)) return this.fetched(await next());
    const key = cacheKey(exchange.identity, request);
    const bypass = exchange.tool.args.fresh === true;
    const lookup: Lookup = bypass ? { failed: false, entry: undefined } : await this.read(key, exchange);
    const counted = (result: CacheLookupResult): void => this.options.metrics.cacheLookup(bypass ? 'bypass' : result);
    if (lookup.failed) {
      counted('error');
      return this.fetched(await next());
    }
    const { entry } = lookup;
    if (entry !== undefined && this.options.clock.now() < entry.expiresAt) {
      counted('hit');
      return responseFrom(entry, this.options.clock.now());
    }
    const etag = entry?.headers.etag;
    // A conditional POST is no HTTP revalidation: a stale query is asked again.
    if (entry !== undefined && etag !== undefined && !query) {
      const response = await exchange.revalidate({ 'if-none-match': etag });
      counted(response.status === 304 ? 'revalidated' : 'miss');
      if (response.status === 304) return this.refresh(key, entry, response, exchange);
      return this.keep(key, response, exchange);
    }
    counted('miss');
    return this.keep(key, await next(), exchange, query);
  }

  /** Stores a fetched 200 when its Cache-Control, size and validators allow; returns it marked as a miss. */
  private async keep(key: string, response: UpstreamResponse, exchange: InterceptContext, query = false): Promise<UpstreamResponse> {
    // One instant for the answer and the entry: a later hit must report the fetchedAt this miss reported.
    const now = this.options.clock.now();
    const fetched = this.fetched(response, now);
    if (response.status !== 200 || (query && hasGraphqlErrors(response))) return fetched;
    const freshness = freshnessOf(response.headers.get('cache-control'), this.options.limits);
    const etag = response.headers.get('etag');
    // An entry that must be revalidated before every use is only worth keeping with a validator.
    if (!freshness.store || (freshness.ttlMs === 0 && etag === null)) return fetched;
    const bytes = Buffer.byteLength(response.text, 'utf8');
    if (bytes > this.options.maxBytes) {
      this.options.logger.debug(
        { vendor: exchange.identity.vendor, bytes, maxBytes: this.options.maxBytes },
        'response larger than HTTP_CACHE_MAX_BYTES: not cached',
      );
      return fetched;
    }
    await this.write(key, entryFrom(response, now, freshness.ttlMs), this.storeTtl(freshness.ttlMs, etag !== null), exchange);
    return fetched;
  }

  /** A 304: the stored body is confirmed as of now, with the freshness the 304 (or the entry) gives. */
  private async refresh(key: string, entry: CacheEntry, notModified: UpstreamResponse, exchange: InterceptContext): Promise<UpstreamResponse> {
    const now = this.options.clock.now();
    const freshness = freshnessOf(notModified.headers.get('cache-control') ?? entry.headers['cache-control'] ?? null, this.options.limits);
    const refreshed = refreshedEntry(entry, notModified.headers, now, freshness.ttlMs);
    if (freshness.store) await this.write(key, refreshed, this.storeTtl(freshness.ttlMs, true), exchange);
    else await this.forget(key, exchange);
    return responseFrom(refreshed, now);
  }

  /** Entries with an ETag outlive their freshness, so that a stale one is revalidated rather than fetched whole. */
  private storeTtl(ttlMs: number, revalidatable: boolean): number {
    return ttlMs + (revalidatable ? this.options.limits.maxTtlMs : 0);
  }

  private fetched(response: UpstreamResponse, now = this.options.clock.now()): UpstreamResponse {
    // Copied with its property descriptors: a big body's text is decoded only when read (upstream-client.ts).
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(response)) as UpstreamResponse;
    copy.cache = { hit: false, ageMs: 0, fetchedAt: new Date(now).toISOString() };
    return copy;
  }

  private async read(key: string, exchange: InterceptContext): Promise<Lookup> {
    const started = performance.now();
    try {
      const value = await this.options.store.get<unknown>(NAMESPACE, key);
      return { failed: false, entry: isCacheEntry(value) ? value : undefined };
    } catch (error) {
      this.storeFailed(error, 'read', exchange);
      return { failed: true };
    } finally {
      exchange.tool.time('cache', (performance.now() - started) * 1000);
    }
  }

  private async write(key: string, entry: CacheEntry, ttlMs: number, exchange: InterceptContext): Promise<void> {
    const started = performance.now();
    try {
      await this.options.store.set(NAMESPACE, key, entry, ttlMs);
    } catch (error) {
      this.storeFailed(error, 'write', exchange);
    } finally {
      exchange.tool.time('cache', (performance.now() - started) * 1000);
    }
  }

  private async forget(key: string, exchange: InterceptContext): Promise<void> {
    try {
      await this.options.store.delete(NAMESPACE, key);
    } catch (error) {
      this.storeFailed(error, 'delete', exchange);
    }
  }

  private storeFailed(error: unknown, operation: string, exchange: InterceptContext): void {
    this.options.logger.warn(
      { err: error, vendor: exchange.identity.vendor, tool: exchange.tool.toolName, operation },
      'HTTP cache store failed; the call bypasses the cache',
    );
  }
}
