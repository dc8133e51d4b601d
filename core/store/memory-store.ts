import { Keyv } from 'keyv';
import { systemClock, type Clock, type KeyValueStore } from './key-value-store.js';
import { KeyvStore, type AtomicEntries } from './keyv-store.js';
import { SWEEP_INTERVAL_MS } from './store-options.js';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * keyv's default Map store drops an expired entry only when it is read again, and an artifact is usually read
 * a few times and then never: its 16 MiB would stay forever. This adapter keeps each entry's expiry beside it
 * and sweeps expired entries on a timer, so memory only holds what is still within its TTL.
 *
 * Its atomic operations (`take`, `swap`) check and change the map in one synchronous step: no other
 * operation of this process can run between the two.
 */
export class ExpiringMemoryAdapter implements AtomicEntries {
  /** keyv sets these on every adapter. */
  namespace?: string;
  readonly opts = { dialect: 'memory' };
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly clock: Clock = systemClock,
    sweepIntervalMs = SWEEP_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => this.sweep(), sweepIntervalMs);
    this.timer.unref();
  }

  /** Entries held, expired or not (what the sweep reclaims). */
  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<unknown> {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    const expiresAt = typeof ttlMs === 'number' && ttlMs > 0 ? this.clock.now() + ttlMs : Number.POSITIVE_INFINITY;
    this.entries.set(key, { value, expiresAt });
    return true;
  }

  async delete(key: string): Promise<boolean> {
    return this.entries.delete(key);
  }

  async read(key: string): Promise<string | undefined> {
    return (await this.get(key)) as string | undefined;
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.live(key);
    this.entries.delete(key);
    return entry?.value as string | undefined;
  }

  async swap(key: string, expected: string, next: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)?.value !== expected) return false;
    this.entries.set(key, { value: next, expiresAt: this.clock.now() + ttlMs });
    return true;
  }

  async clear(): Promise<void> {
    this.entries.clear();
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiresAt > this.clock.now() ? entry : undefined;
  }

  /** Removes every expired entry; returns how many. */
  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        removed++;
      }
    }
    return removed;
  }

  /** keyv listens for 'error'; memory never fails, so there is nothing to emit. */
  on(_event: string, _listener: (...args: unknown[]) => void): this {
    return this;
  }

  async disconnect(): Promise<void> {
    clearInterval(this.timer);
  }
}

/** `memory://`: one process, nothing to install, gone on restart. Values are still serialised, as elsewhere. */
export function openMemoryStore(namespace: string, timeoutMs: number, adapter = new ExpiringMemoryAdapter()): KeyValueStore {
  const keyv = new Keyv({ store: adapter, namespace, throwOnErrors: true });
  return new KeyvStore({ kind: 'memory', keyv, timeoutMs, atomic: adapter, close: () => adapter.disconnect() });
}
