import { randomUUID } from 'node:crypto';
import { Keyv } from 'keyv';
import { StartupError } from '../errors/tool-error.js';
import type { KeyValueStore } from './key-value-store.js';
import { KeyvStore } from './keyv-store.js';

const SWEEP_INTERVAL_MS = 30_000;

/**
 * Opens the store named by MCP_STORE_URL and proves it works with a write, a read and a delete, so that an
 * unreachable or misconfigured store fails start-up with a clear message instead of failing calls later.
 */
export async function openStore(url: string): Promise<KeyValueStore> {
  const store = await connect(url);
  try {
    const probe = randomUUID();
    await store.set('probe', probe, 'ok', 10_000);
    if ((await store.get('probe', probe)) !== 'ok') throw new Error('a value written could not be read back');
    await store.delete('probe', probe);
  } catch (error) {
    await store.close().catch(() => {});
    throw new StartupError(`MCP_STORE_URL=${redactUrl(url)}: the store does not work: ${(error as Error).message}`, { cause: error });
  }
  return store;
}

async function connect(url: string): Promise<KeyValueStore> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(`MCP_STORE_URL=${redactUrl(url)} is not a URL. Use memory://, sqlite:///absolute/path.db or redis://host:port/db.`);
  }
  switch (parsed.protocol) {
    case 'memory:':
      return memoryStore();
    case 'sqlite:':
      return sqliteStore(parsed, url);
    case 'redis:':
    case 'rediss:':
      return redisStore(url);
    default:
      throw new StartupError(`MCP_STORE_URL=${redactUrl(url)}: unsupported scheme "${parsed.protocol}". Use memory://, sqlite:///absolute/path.db or redis://host:port/db.`);
  }
}

function memoryStore(): KeyValueStore {
  const map = new Map<string, unknown>();
  const keyv = new Keyv({ store: map });
  // keyv drops an expired entry only when it is read: sweep so that unread entries do not pile up.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, raw] of map) {
      const expires = (raw as { expires?: number } | undefined)?.expires;
      if (typeof expires === 'number' && expires <= now) map.delete(key);
    }
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  return new KeyvStore('memory', keyv, async () => clearInterval(sweep));
}

async function sqliteStore(parsed: URL, url: string): Promise<KeyValueStore> {
  const path = decodeURIComponent(parsed.pathname);
  if (parsed.host !== '' || !path.startsWith('/') || path === '/') {
    throw new StartupError(`MCP_STORE_URL=${url}: give an absolute database path, as sqlite:///var/lib/mcp-devtools/store.db.`);
  }
  const { KeyvSqlite } = await import('@keyv/sqlite');
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5000 });
  const keyv = new Keyv({ store: adapter });
  return new KeyvStore('sqlite', keyv, async () => keyv.disconnect());
}

async function redisStore(url: string): Promise<KeyValueStore> {
  const { createKeyv } = await import('@keyv/redis');
  const keyv = createKeyv(url, { throwOnConnectError: true, throwOnErrors: true, connectionTimeout: 5000 });
  keyv.throwOnErrors = true;
  keyv.on('error', () => {}); // surfaced through the thrown errors of each operation instead
  return new KeyvStore('redis', keyv, async () => keyv.disconnect());
}

/** A store URL may carry a password (redis://:secret@host): never print it. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
