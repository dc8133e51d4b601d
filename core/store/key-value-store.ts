/**
 * The only shared state of the server (HTTP cache, artifacts, approvals) goes through this interface, backed
 * by keyv: in memory by default, SQLite on one host, Redis across replicas. Every entry has a TTL, and every
 * key lives in a namespace, so the kinds of state never collide.
 */
export interface KeyValueStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  get<T>(namespace: string, key: string): Promise<T | undefined>;
  /** `ttlMs` is required: nothing is kept forever. */
  set(namespace: string, key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(namespace: string, key: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Time as the server sees it; tests swap in a controllable clock to reach expiry without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
