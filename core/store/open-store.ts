import { redactUrl } from '../text/url-credentials.js';
import { StartupError } from '../errors/tool-error.js';
import type { KeyValueStore } from './key-value-store.js';
import { ExpiringMemoryAdapter, openMemoryStore } from './memory-store.js';
import { openRedisStore } from './redis-store.js';
import { openSqliteStore } from './sqlite-store.js';
import { DEFAULT_STORE_OPTIONS, STORE_NAMESPACE_PATTERN, type StoreOptions } from './store-options.js';

export { redactUrl } from '../text/url-credentials.js';

const SCHEMES = 'Use memory://, sqlite:///absolute/path.db or redis://host:port/db (rediss:// for TLS).';
const NAMESPACE = new RegExp(STORE_NAMESPACE_PATTERN);

/**
 * Opens the store named by MCP_STORE_URL and proves it works with a write, a read and a delete, so that an
 * unreachable or misconfigured store fails start-up with a clear message naming the setting, within
 * MCP_STORE_TIMEOUT_MS, instead of failing calls later. A password in the URL never appears in a message.
 */
export async function openStore(url: string, given: Partial<StoreOptions> = {}): Promise<KeyValueStore> {
  const options: StoreOptions = { ...DEFAULT_STORE_OPTIONS, ...given };
  if (!NAMESPACE.test(options.namespace)) {
    throw new StartupError(
      `MCP_STORE_NAMESPACE=${JSON.stringify(options.namespace)} must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  const store = await connect(url, options);
  try {
    // Unique enough for a key that lives a moment (not a secret); randomUUID would load node:crypto, a few
    // milliseconds of every start, for this one key.
    const probe = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    await store.set('probe', probe, 'ok', 10_000);
    if ((await store.get('probe', probe)) !== 'ok') throw new Error('a value written could not be read back');
    await store.delete('probe', probe);
  } catch (error) {
    await store.close().catch(() => {});
    throw new StartupError(`MCP_STORE_URL=${redactUrl(url)}: the ${store.kind} store does not work: ${(error as Error).message}`, { cause: error });
  }
  return store;
}

async function connect(url: string, options: StoreOptions): Promise<KeyValueStore> {
  const shown = redactUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(`MCP_STORE_URL=${shown} is not a URL. ${SCHEMES}`);
  }
  switch (parsed.protocol) {
    case 'memory:':
      return openMemoryStore(options.namespace, options.timeoutMs, new ExpiringMemoryAdapter(undefined, options.sweepIntervalMs));
    case 'sqlite:':
      return openSqliteStore(parsed, shown, options);
    case 'redis:':
    case 'rediss:':
      return openRedisStore(parsed, url, shown, options);
    default:
      throw new StartupError(`MCP_STORE_URL=${shown}: unsupported scheme "${parsed.protocol}". ${SCHEMES}`);
  }
}
