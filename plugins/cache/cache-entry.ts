import { nodeCrypto } from '../../core/node-crypto.js';
import type { BodyKind, UpstreamIdentity, UpstreamResponse } from '../../core/plugin/upstream-types.js';

/** Response headers kept with an entry: what tools and revalidation read. Never cookies or rate-limit counters. */
const KEPT_HEADERS = ['content-type', 'etag', 'last-modified', 'cache-control', 'link', 'date'] as const;

/** What the cache stores: the upstream response as received, never rendered text. */
export interface CacheEntry {
  v: 1;
  status: number;
  kind: BodyKind;
  text: string;
  headers: Record<string, string>;
  /** Clock time (ms) of the upstream fetch, or of the last revalidation that confirmed the body. */
  fetchedAt: number;
  /** Clock time (ms) until which the entry is served without asking upstream. */
  expiresAt: number;
}

/**
 * The key of a request: the upstream identity's fingerprint (a hash of vendor, base URL and secret), the
 * method and the full URL, and for a GraphQL query its body (document, variables and operation name). Two
 * credentials never share a key, so one never sees the other's entries.
 */
export function cacheKey(identity: UpstreamIdentity, request: { method: string; url: URL; body?: string }): string {
  const body = request.method === 'GET' || request.body === undefined ? '' : `\0${request.body}`;
  return nodeCrypto().createHash('sha256').update(`${identity.fingerprint}\0${request.method}\0${request.url.href}${body}`).digest('hex');
}

export function entryFrom(response: UpstreamResponse, now: number, ttlMs: number): CacheEntry {
  return {
    v: 1,
    status: response.status,
    kind: response.kind,
    text: response.text,
    headers: keptHeaders(response.headers),
    fetchedAt: now,
    expiresAt: now + ttlMs,
  };
}

/** A 304's validators and freshness replace the stored ones (RFC 9111 section 4.3.4); the body stays. */
export function refreshedEntry(entry: CacheEntry, notModified: Headers, now: number, ttlMs: number): CacheEntry {
  return { ...entry, headers: { ...entry.headers, ...keptHeaders(notModified) }, fetchedAt: now, expiresAt: now + ttlMs };
}

/** The stored response as a tool sees it, marked as a hit of the given age. */
export function responseFrom(entry: CacheEntry, now: number): UpstreamResponse {
  const body = entry.kind === 'json' ? JSON.parse(entry.text) : entry.kind === 'text' ? entry.text : undefined;
  return {
    status: entry.status,
    headers: new Headers(entry.headers),
    body,
    kind: entry.kind,
    text: entry.text,
    cache: { hit: true, ageMs: Math.max(0, now - entry.fetchedAt), fetchedAt: new Date(entry.fetchedAt).toISOString() },
  };
}

/** Anything else under a key (a different version's layout, a corrupted value) is treated as a miss. */
export function isCacheEntry(value: unknown): value is CacheEntry {
  const e = value as Partial<CacheEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.v === 1 &&
    typeof e.status === 'number' &&
    typeof e.text === 'string' &&
    typeof e.fetchedAt === 'number' &&
    typeof e.expiresAt === 'number' &&
    typeof e.headers === 'object' &&
    e.headers !== null &&
    (e.kind === 'json' || e.kind === 'text' || e.kind === 'empty')
  );
}

function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}
