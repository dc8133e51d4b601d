export interface CacheLimits {
  /** TTL when the response gives none (HTTP_CACHE_DEFAULT_TTL_SECONDS). */
  defaultTtlMs: number;
  /** No entry is fresh for longer (HTTP_CACHE_MAX_TTL_SECONDS). */
  maxTtlMs: number;
}

export interface Freshness {
  /** May the response be stored at all? */
  store: boolean;
  /** How long a stored response may be served without asking upstream; 0 means revalidate every time. */
  ttlMs: number;
}

/**
 * How long a response may be served from the cache, from its `Cache-Control`:
 * - `no-store`: never stored;
 * - `no-cache` or `max-age=0`: stored, but revalidated before every use (useful only with an ETag);
 * - `max-age=N`: N seconds, capped by the maximum TTL;
 * - nothing usable: the default TTL, capped likewise.
 * `private` is honoured by construction rather than by refusing: entries are keyed by the upstream credential,
 * so a response is only ever served to calls made with the credential it was fetched with.
 *
 * Example: freshnessOf('private, max-age=30', {defaultTtlMs: 60000, maxTtlMs: 3600000}) -> {store: true, ttlMs: 30000}.
 */
export function freshnessOf(header: string | null, limits: CacheLimits): Freshness {
  const directives = parseDirectives(header ?? '');
  const cap = (ms: number): number => Math.max(0, Math.min(ms, limits.maxTtlMs));
  if (directives.has('no-store')) return { store: false, ttlMs: 0 };
  if (directives.has('no-cache')) return { store: true, ttlMs: 0 };
  const maxAge = directives.get('max-age');
  if (maxAge !== undefined && /^\d+$/.test(maxAge)) return { store: true, ttlMs: cap(Number(maxAge) * 1000) };
  return { store: true, ttlMs: cap(limits.defaultTtlMs) };
}

function parseDirectives(header: string): Map<string, string | undefined> {
  const directives = new Map<string, string | undefined>();
  for (const part of header.split(',')) {
    const [name = '', value] = part.split('=', 2).map((s) => s.trim());
    if (name !== '') directives.set(name.toLowerCase(), value?.replace(/^"(.*)"$/, '$1'));
  }
  return directives;
}
