/**
 * The only shared state of the server (HTTP cache, artifacts, approvals) goes through this interface, backed
 * by keyv: in memory by default, SQLite on one host, Redis across replicas. Every entry has a TTL, and every
 * key lives in a namespace, so the kinds of state never collide.
 *
 * Values are JSON data (plain objects, arrays, strings, finite numbers, booleans, null) or Buffers, and come
 * back exactly as written from every store. Anything that would not (undefined, BigInt, NaN, Date, Map, a
 * class instance, a cycle) is refused by `set` with an error naming where it is.
 *
 * When the store fails (Redis down or hung, SQLite locked), every operation rejects with a StoreError within
 * MCP_STORE_TIMEOUT_MS: callers degrade (the cache is bypassed, `artifactId` is null) or, where state must
 * hold (approvals, sign-ins), refuse.
 */
export interface KeyValueStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** `namespace`: letters, digits, `.`, `_`, `-` (no `:`, so namespaces cannot overlap). */
  get<T>(namespace: string, key: string): Promise<T | undefined>;
  /** `ttlMs` is required: nothing is kept forever. */
  set(namespace: string, key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(namespace: string, key: string): Promise<boolean>;
  /**
   * Reads and deletes an entry in one atomic operation, for anything single-use (a granted approval, a
   * sign-in's state): of any number of callers taking one key at once, in any process sharing the store,
   * exactly one gets the value and the others get undefined. An expired entry is never given.
   */
  take<T>(namespace: string, key: string): Promise<T | undefined>;
  /**
   * Compare-and-set: writes `next` (for `ttlMs`) only if the entry is still within its TTL and its value still
   * equals `expected` (as `get` gave it), atomically; resolves whether it wrote. Of callers replacing the same
   * value at once, in any process sharing the store, exactly one succeeds: the others read again to learn why.
   */
  replaceIf(namespace: string, key: string, expected: unknown, next: unknown, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The store did not answer in time or failed; the message says which store and which operation. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** Time as the server sees it; tests swap in a controllable clock to reach expiry without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
