import { isDeepStrictEqual } from 'node:util';
import type { Keyv } from 'keyv';
import { withDeadline } from './deadline.js';
import { StoreError, type KeyValueStore } from './key-value-store.js';
import { assertStorable } from './storable-value.js';

const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A compare-and-set whose entry keeps being rewritten with the same value gives up after this many reads. */
const MAX_SWAP_ATTEMPTS = 8;

/**
 * What a backend does atomically on an entry as keyv stores it (the serialised `{value, expires}`), by the key
 * keyv hands its adapter. Each is one operation of the backend (a synchronous step in memory, one SQL
 * statement, one Redis command or script), so no other process's operation can come between its parts.
 */
export interface AtomicEntries {
  /** The stored text of the entry, or undefined. */
  read(key: string): Promise<string | undefined>;
  /** The stored text, the entry deleted in the same operation; undefined when there was none. */
  take(key: string): Promise<string | undefined>;
  /** Writes `next`, expiring in `ttlMs`, only if the stored text is still exactly `expected`; whether it wrote. */
  swap(key: string, expected: string, next: string, ttlMs: number): Promise<boolean>;
}

export interface KeyvStoreOptions {
  kind: KeyValueStore['kind'];
  /** A keyv with `throwOnErrors`, so that a failing backend rejects instead of reading as a miss. */
  keyv: Keyv;
  /** Longest wait for one operation (MCP_STORE_TIMEOUT_MS). */
  timeoutMs: number;
  /** The backend's atomic operations, behind `take` and `replaceIf`. */
  atomic: AtomicEntries;
  /** Releases the backend (timers, connections). */
  close?: () => Promise<void>;
}

/**
 * A KeyValueStore over any keyv adapter. Namespaces become key prefixes on one keyv instance (the deployment's
 * MCP_STORE_NAMESPACE is keyv's own namespace, outside these). Every operation is bounded in time and every
 * failure becomes a StoreError, so a hung or dead backend degrades a call instead of hanging or crashing it.
 */
export class KeyvStore implements KeyValueStore {
  readonly kind: KeyValueStore['kind'];
  private closed = false;

  constructor(private readonly options: KeyvStoreOptions) {
    this.kind = options.kind;
  }

  async get<T>(namespace: string, key: string): Promise<T | undefined> {
    const entry = entryKey(namespace, key);
    return (await this.run('read', namespace, () => this.options.keyv.get(entry))) as T | undefined;
  }

  async set(namespace: string, key: string, value: unknown, ttlMs: number): Promise<void> {
    const entry = entryKey(namespace, key);
    checkTtl(ttlMs, namespace);
    assertStorable(value, `an entry of namespace ${namespace}`);
    const saved = await this.run('write', namespace, () => this.options.keyv.set(entry, value, Math.ceil(ttlMs)));
    if (saved === false) throw new StoreError(`The ${this.kind} store refused to write an entry of namespace ${namespace}.`);
  }

  async delete(namespace: string, key: string): Promise<boolean> {
    const entry = entryKey(namespace, key);
    return this.run('delete', namespace, () => this.options.keyv.delete(entry));
  }

  async take<T>(namespace: string, key: string): Promise<T | undefined> {
    const entry = this.adapterKey(namespace, key);
    const taken = await this.run('take', namespace, async () => this.live(await this.options.atomic.take(entry)));
    return taken?.value as T | undefined;
  }

  async replaceIf(namespace: string, key: string, expected: unknown, next: unknown, ttlMs: number): Promise<boolean> {
    const entry = this.adapterKey(namespace, key);
    checkTtl(ttlMs, namespace);
    assertStorable(next, `an entry of namespace ${namespace}`);
    const ttl = Math.ceil(ttlMs);
    return this.run('compare-and-set', namespace, async () => {
      // The stored text holds the expiry as well, so a rewrite of the same value fails the swap: read again then.
      for (let attempt = 0; attempt < MAX_SWAP_ATTEMPTS; attempt++) {
        const stored = await this.options.atomic.read(entry);
        const current = await this.live(stored);
        if (current === undefined || !isDeepStrictEqual(current.value, expected)) return false;
        const text = (await this.options.keyv.serializeData({ value: next, expires: Date.now() + ttl })) as string;
        if (await this.options.atomic.swap(entry, stored!, text, ttl)) return true;
      }
      return false;
    });
  }

  /** Idempotent; bounded like every other operation, so a dead Redis cannot stall shutdown. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.run('close', 'all', async () => this.options.close?.());
  }

  private async run<T>(operation: string, namespace: string, work: () => Promise<T>): Promise<T> {
    if (this.closed && operation !== 'close') throw new StoreError(`The ${this.kind} store is closed (${operation} in namespace ${namespace}).`);
    const what = `The ${this.kind} store`;
    try {
      return await withDeadline(
        work(),
        this.options.timeoutMs,
        () => new StoreError(`${what} did not answer a ${operation} in namespace ${namespace} within ${this.options.timeoutMs} ms (MCP_STORE_TIMEOUT_MS).`),
      );
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`${what} failed a ${operation} in namespace ${namespace}: ${describe(error)}`, { cause: error });
    }
  }

  /** The key keyv hands the adapter (with the deployment's prefix, where keyv adds it). */
  private adapterKey(namespace: string, key: string): string {
    return this.options.keyv._getKeyPrefix(entryKey(namespace, key));
  }

  /** The value of stored text, unless it has expired (by keyv's own rule, as `get` decides). */
  private async live(stored: string | undefined): Promise<{ value: unknown } | undefined> {
    if (stored === undefined) return undefined;
    const data = await this.options.keyv.deserializeData<unknown>(stored);
    if (data === undefined || data === null) return undefined;
    if (typeof data.expires === 'number' && Date.now() > data.expires) return undefined;
    return { value: data.value };
  }
}

function checkTtl(ttlMs: number, namespace: string): void {
  if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) throw new TypeError(`Store entries need a positive, finite TTL (got ${ttlMs} for namespace ${namespace}).`);
}

function entryKey(namespace: string, key: string): string {
  if (!NAMESPACE.test(namespace)) throw new TypeError(`Store namespace ${JSON.stringify(namespace)} must be letters, digits, ".", "_" or "-".`);
  if (typeof key !== 'string' || key === '') throw new TypeError(`Store keys of namespace ${namespace} must be non-empty strings.`);
  return `${namespace}:${key}`;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
