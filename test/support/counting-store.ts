import type { KeyValueStore } from '../../core/store/key-value-store.js';

/** Wraps a store and counts what is read through it: how many gets, per namespace, and how many bytes came back. */
export class CountingStore implements KeyValueStore {
  readonly gets = new Map<string, number>();
  bytesRead = 0;

  constructor(private readonly inner: KeyValueStore) {}

  get kind(): KeyValueStore['kind'] {
    return this.inner.kind;
  }

  reset(): void {
    this.gets.clear();
    this.bytesRead = 0;
  }

  async get<T>(namespace: string, key: string): Promise<T | undefined> {
    this.gets.set(namespace, (this.gets.get(namespace) ?? 0) + 1);
    const value = await this.inner.get<T>(namespace, key);
    if (value !== undefined) this.bytesRead += typeof value === 'string' ? value.length : JSON.stringify(value).length;
    return value;
  }

  set(namespace: string, key: string, value: unknown, ttlMs: number): Promise<void> {
    return this.inner.set(namespace, key, value, ttlMs);
  }

  delete(namespace: string, key: string): Promise<boolean> {
    return this.inner.delete(namespace, key);
  }

  take<T>(namespace: string, key: string): Promise<T | undefined> {
    return this.inner.take<T>(namespace, key);
  }

  replaceIf(namespace: string, key: string, expected: unknown, next: unknown, ttlMs: number): Promise<boolean> {
    return this.inner.replaceIf(namespace, key, expected, next, ttlMs);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
