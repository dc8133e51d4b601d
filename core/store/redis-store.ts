import { StartupError } from '../errors/tool-error.js';
import { withDeadline } from './deadline.js';
import type { KeyValueStore } from './key-value-store.js';
import { KeyvStore, type AtomicEntries } from './keyv-store.js';
import type { StoreOptions } from './store-options.js';

const MAX_RECONNECT_DELAY_MS = 2000;
/** Compare-and-set in one script: Redis runs a script alone, so nothing comes between the GET and the SET. */
const SWAP_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0";

/**
 * `redis://[user:password@]host:port/db` (`rediss://` for TLS): shared by every replica. Keys are
 * `<MCP_STORE_NAMESPACE>::<namespace>:<key>` in the database the URL's path names (0 when absent), with Redis
 * expiring them itself.
 *
 * How failure stays bounded: the first connection must succeed within MCP_STORE_TIMEOUT_MS or start-up fails;
 * after that the client reconnects forever in the background (backoff capped at 2 s), commands sent while it is
 * offline are refused at once instead of queued, and a server that accepts but never answers is cut off by
 * the store's per-operation timeout. Client 'error' events are absorbed: callers see rejected operations.
 */
export async function openRedisStore(url: URL, raw: string, shown: string, options: StoreOptions): Promise<KeyValueStore> {
  const database = databaseIndex(url, shown);
  const { createClient, createKeyv } = await import('@keyv/redis');
  let connected = false;
  let lastError: Error | undefined;
  const client = createClient({
    url: raw,
    database,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.timeoutMs,
      // Before the first connection a failure is final (start-up reports it); after it, keep trying.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS) : cause),
    },
  });
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await withDeadline(client.connect(), options.timeoutMs, () => new Error(`no answer within ${options.timeoutMs} ms (MCP_STORE_TIMEOUT_MS)`));
  } catch (error) {
    if (client.isOpen) client.destroy();
    const reason = ((error as Error).message || lastError?.message || String(error)).replace(/\.+$/, '');
    throw new StartupError(
      `MCP_STORE_URL=${shown}: cannot connect to Redis: ${reason}. Check that Redis runs at that address and that the password and database are right.`,
      { cause: error },
    );
  }
  connected = true;
  // The adapter prefixes keys with `<namespace>::` itself, and keyv is told not to prefix them again.
  const keyv = createKeyv(client, { namespace: options.namespace, throwOnErrors: true, throwOnConnectError: true });
  const adapter = keyv.store as { createKeyPrefix(key: string, namespace?: string): string };
  const redisKey = (key: string): string => adapter.createKeyPrefix(key, options.namespace);
  // GETDEL (Redis 6.2 and later) reads and deletes in one command.
  const atomic: AtomicEntries = {
    read: async (key) => (await client.get(redisKey(key))) ?? undefined,
    take: async (key) => (await client.getDel(redisKey(key))) ?? undefined,
    swap: async (key, expected, next, ttlMs) => (await client.eval(SWAP_SCRIPT, { keys: [redisKey(key)], arguments: [expected, next, String(ttlMs)] })) === 1,
  };
  return new KeyvStore({
    kind: 'redis',
    keyv,
    timeoutMs: options.timeoutMs,
    atomic,
    // QUIT waits for the server; a dead or hung one would hold shutdown, so fall back to dropping the socket.
    close: async () => {
      if (!client.isOpen) return;
      if (!client.isReady) {
        client.destroy();
        return;
      }
      await withDeadline(client.close(), Math.min(1000, options.timeoutMs), () => new Error('QUIT unanswered')).catch(() => {});
      if (client.isOpen) client.destroy();
    },
  });
}

/** The database index from the URL's path: `/` or nothing is 0; anything but a whole number is a mistake. */
function databaseIndex(url: URL, shown: string): number {
  const path = url.pathname;
  if (path === '' || path === '/') return 0;
  const match = /^\/(\d{1,5})$/.exec(path);
  if (match === null) {
    throw new StartupError(`MCP_STORE_URL=${shown}: the path must be a database number (redis://host:6379/0), not "${path}".`);
  }
  return Number(match[1]);
}
