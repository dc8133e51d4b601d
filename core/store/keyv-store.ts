import { Keyv } from 'keyv';
import type { KeyValueStore } from './key-value-store.js';

/** A KeyValueStore over any keyv adapter. Namespaces become key prefixes on one keyv instance. */
export class KeyvStore implements KeyValueStore {
  constructor(
    readonly kind: KeyValueStore['kind'],
    private readonly keyv: Keyv,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  async get<T>(namespace: string, key: string): Promise<T | undefined> {
    return (await this.keyv.get(`${namespace}:${key}`)) as T | undefined;
  }

  async set(namespace: string, key: string, value: unknown, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) throw new Error(`store entry ${namespace}:${key} needs a positive TTL`);
    const ok = await this.keyv.set(`${namespace}:${key}`, value, Math.ceil(ttlMs));
    if (ok === false) throw new Error(`the ${this.kind} store refused to save ${namespace}:${key}`);
  }

  async delete(namespace: string, key: string): Promise<boolean> {
    return this.keyv.delete(`${namespace}:${key}`);
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
