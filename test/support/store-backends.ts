import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyValueStore } from '../../core/store/key-value-store.js';
import { openStore } from '../../core/store/open-store.js';
import type { StoreOptions } from '../../core/store/store-options.js';
import { sharedRedisUrl, uniqueNamespace } from './redis.js';

/** One of the three stores, for suites that must behave the same on each. */
export interface Backend {
  kind: KeyValueStore['kind'];
  /** A URL for a fresh store: a new SQLite file each time; the shared Redis (tests separate by namespace). */
  freshUrl(): Promise<string>;
  /** Whether two stores opened on one URL see each other's entries (memory is per store). */
  shared: boolean;
}

export const BACKENDS: readonly Backend[] = [
  { kind: 'memory', freshUrl: async () => 'memory://', shared: false },
  { kind: 'sqlite', freshUrl: async () => `sqlite://${sqliteFile()}`, shared: true },
  { kind: 'redis', freshUrl: sharedRedisUrl, shared: true },
];

/** The path of a SQLite database that does not exist yet, in a fresh temporary directory. */
export function sqliteFile(name = 'store.db'): string {
  return join(mkdtempSync(join(tmpdir(), 'mcp-devtools-sqlite-')), name);
}

/** Opens a store on `url` in a namespace of its own (unless one is given). */
export function openTestStore(url: string, options: Partial<StoreOptions> = {}): Promise<KeyValueStore> {
  return openStore(url, { namespace: uniqueNamespace(), ...options });
}
