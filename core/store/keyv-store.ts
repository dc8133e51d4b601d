import type { Keyv } from 'keyv';
import { withDeadline } from './deadline.js';
import { StoreError, type KeyValueStore } from './key-value-store.js';
import { assertStorable } from './storable-value.js';

const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface KeyvStoreOptions {
  kind: KeyValueStore['kind'];
  /** A keyv with `throwOnErrors`, so that a failing backend rejects instead of reading as a miss. */
  keyv: Keyv;
  /** Longest wait for one operation (MCP_STORE_TIMEOUT_MS). */
  timeoutMs: number;
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
    if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) throw new TypeError(`Store entries need a positive, finite TTL (got ${ttlMs} for namespace ${namespace}).`);
    assertStorable(value, `an entry of namespace ${namespace}`);
    const saved = await this.run('write', namespace, () => this.options.keyv.set(entry, value, Math.ceil(ttlMs)));
    if (saved === false) throw new StoreError(`The ${this.kind} store refused to write an entry of namespace ${namespace}.`);
  }

  async delete(namespace: string, key: string): Promise<boolean> {
    const entry = entryKey(namespace, key);
    return this.run('delete', namespace, () => this.options.keyv.delete(entry));
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
