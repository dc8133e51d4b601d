import { StoreError, type KeyValueStore } from '../../core/store/key-value-store.js';

/**
 * The real memory store, with an outage switch: while `down`, every operation throws the StoreError a Redis
 * store throws when its server goes away.
 */
export class StoreWithOutage implements KeyValueStore {
  readonly kind = 'redis' as const;
  down = false;

  constructor(private readonly inner: KeyValueStore) {}

  private check(operation: string, namespace: string): void {
    if (this.down) throw new StoreError(`The redis store failed a ${operation} in namespace ${namespace}: Connection is closed.`);
  }

  async get<T>(namespace: string, key: string): Promise<T | undefined> {
    this.check('read', namespace);
    return this.inner.get<T>(namespace, key);
  }

  async set(namespace: string, key: string, value: unknown, ttlMs: number): Promise<void> {
    this.check('write', namespace);
    await this.inner.set(namespace, key, value, ttlMs);
  }

  async delete(namespace: string, key: string): Promise<boolean> {
    this.check('delete', namespace);
    return this.inner.delete(namespace, key);
  }

  async take<T>(namespace: string, key: string): Promise<T | undefined> {
    this.check('take', namespace);
    return this.inner.take<T>(namespace, key);
  }

  async replaceIf(namespace: string, key: string, expected: unknown, next: unknown, ttlMs: number): Promise<boolean> {
    this.check('compare-and-set', namespace);
    return this.inner.replaceIf(namespace, key, expected, next, ttlMs);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
