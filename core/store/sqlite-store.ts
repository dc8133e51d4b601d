import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Keyv } from 'keyv';
import { StartupError } from '../errors/tool-error.js';
import type { KeyValueStore } from './key-value-store.js';
import { KeyvStore, type AtomicEntries } from './keyv-store.js';
import { SWEEP_INTERVAL_MS, type StoreOptions } from './store-options.js';

/** keyv's table (key, value), as its adapter names it. */
const KEYV_TABLE = 'keyv';
/** Beside keyv's table: when each of our rows expires, indexed, so sweeping costs only the expired rows. */
const EXPIRY_TABLE = 'mcp_expiry';

/**
 * `sqlite:///absolute/path.db`: one host, survives restarts, shared by every process on the host. The file is
 * created owner-only (it holds cached API responses and artifacts); SQLite gives its -wal and -shm files the
 * same mode. WAL lets readers run beside a writer, and the busy timeout makes concurrent writers wait their
 * turn, up to MCP_STORE_TIMEOUT_MS, instead of failing at once.
 */
export async function openSqliteStore(url: URL, shown: string, options: StoreOptions): Promise<KeyValueStore> {
  const path = databasePath(url, shown);
  prepareFile(path, shown);
  const adapter = await connectAdapter(path, shown, options);
  const keyv = new Keyv({ store: adapter, namespace: options.namespace, throwOnErrors: true });
  const sweep = setInterval(() => void sweepExpired(adapter.query).catch(() => {}), options.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
  sweep.unref();
  return new KeyvStore({
    kind: 'sqlite',
    keyv,
    timeoutMs: options.timeoutMs,
    atomic: atomicEntries(adapter),
    close: async () => {
      clearInterval(sweep);
      await adapter.disconnect();
    },
  });
}

type Adapter = InstanceType<typeof import('@keyv/sqlite').KeyvSqlite>;

/**
 * keyv's adapter writes rows without their expiry (keyv keeps it inside the JSON value and checks it only when
 * a row is read). This one also records each row's expiry in an indexed table, before the row itself: a sweep
 * running between the two writes then sees the new expiry and keeps the row.
 */
async function expiryRecordingAdapter(path: string, shown: string, busyTimeout: number): Promise<Adapter> {
  const KeyvSqlite = await sqliteAdapterClass(shown);
  return new (class extends KeyvSqlite {
    override async set(key: string, value: unknown, ttlMs?: number): Promise<unknown> {
      if (typeof ttlMs === 'number' && ttlMs > 0) {
        await this.query(
          `INSERT INTO ${EXPIRY_TABLE}(key, expires) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET expires = excluded.expires`,
          key,
          Date.now() + ttlMs,
        );
      }
      return super.set(key, value);
    }
  })({ uri: `sqlite://${path}`, busyTimeout });
}

/**
 * keyv's SQLite adapter, which loads SQLite's native module (the sqlite3 package). Its install script builds
 * that module; the repository's `npm ci` skips it (package.json allowScripts) and npm can be told to skip
 * install scripts, so a missing module is an operator's step to take, said as such. sqlite3 is required first,
 * from where the adapter finds it: its failure is then a plain exception (Node 20 also reports a CommonJS
 * module that throws under an ESM import as uncaught, which would end the process).
 */
async function sqliteAdapterClass(shown: string): Promise<typeof import('@keyv/sqlite').KeyvSqlite> {
  const adapter = createRequire(import.meta.url).resolve('@keyv/sqlite');
  try {
    createRequire(adapter)('sqlite3');
  } catch (error) {
    if (!/Could not locate the bindings file/.test((error as Error).message)) throw error;
    throw new StartupError(
      `MCP_STORE_URL=${shown}: SQLite's native module (the sqlite3 package) is not built. In a clone of mcp-devtools run \`npm run build:sqlite\`; where the package is installed, \`npm rebuild sqlite3\` in its folder (npm runs install scripts unless told not to). memory:// and redis:// need nothing.`,
      { cause: error },
    );
  }
  return (await import('@keyv/sqlite')).KeyvSqlite;
}

/**
 * keyv's own delete reads the row, then deletes it: every process that read it before the delete is told it
 * deleted it. These are single statements instead, so SQLite's write lock makes each atomic across every
 * connection to the file, in this process or another.
 */
function atomicEntries(adapter: Adapter): AtomicEntries {
  const query = (sql: string, ...params: unknown[]) => adapter.query(sql, ...params) as Promise<Array<Record<string, string>>>;
  return {
    read: async (key) => (await query(`SELECT value FROM ${KEYV_TABLE} WHERE key = ?`, key))[0]?.value,
    take: async (key) => (await query(`DELETE FROM ${KEYV_TABLE} WHERE key = ? RETURNING value`, key))[0]?.value,
    swap: async (key, expected, next, ttlMs) => {
      // As in set, the expiry is recorded before the row; it is only ever lengthened here, so a swap that
      // loses cannot shorten the expiry of the row the winner wrote (a sweep would take it early).
      await query(
        `INSERT INTO ${EXPIRY_TABLE}(key, expires) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET expires = max(expires, excluded.expires)`,
        key,
        Date.now() + ttlMs,
      );
      return (await query(`UPDATE ${KEYV_TABLE} SET value = ? WHERE key = ? AND value = ? RETURNING key`, next, key, expected)).length === 1;
    },
  };
}

/**
 * Opens the adapter and switches the file to WAL. Processes starting together on a new file can meet in a
 * lock upgrade that SQLite answers with SQLITE_BUSY at once, without waiting (it would deadlock otherwise);
 * the adapter is then useless (its table creation failed), so a fresh one is tried until the timeout.
 */
async function connectAdapter(path: string, shown: string, options: StoreOptions): Promise<Adapter> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const adapter = await expiryRecordingAdapter(path, shown, options.timeoutMs);
    let openError: Error | undefined;
    adapter.on('error', (error: Error) => {
      openError ??= error;
    });
    try {
      await adapter.query('PRAGMA journal_mode=WAL');
      await adapter.query('PRAGMA synchronous=NORMAL');
      await adapter.query(`CREATE TABLE IF NOT EXISTS ${EXPIRY_TABLE}(key VARCHAR(255) PRIMARY KEY, expires INTEGER NOT NULL)`);
      await adapter.query(`CREATE INDEX IF NOT EXISTS ${EXPIRY_TABLE}_by_time ON ${EXPIRY_TABLE}(expires)`);
      return adapter;
    } catch (error) {
      await adapter.disconnect().catch(() => {});
      const cause = openError ?? (error as Error);
      if ((cause as NodeJS.ErrnoException).code === 'SQLITE_BUSY' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
        continue;
      }
      throw new StartupError(`MCP_STORE_URL=${shown}: cannot open the SQLite database ${path}: ${cause.message}`, { cause });
    }
  }
}

/**
 * keyv's SQLite adapter keeps a row until it is read after its expiry; artifacts mostly are not read again.
 * Deletes every expired row of any deployment in the file, found through the expiry index. A row written again
 * between the two statements has a new expiry by then, so the second statement keeps its record.
 */
export async function sweepExpired(query: (sql: string, ...params: unknown[]) => Promise<unknown>, now = Date.now()): Promise<void> {
  await query(`DELETE FROM ${KEYV_TABLE} WHERE key IN (SELECT key FROM ${EXPIRY_TABLE} WHERE expires <= ?)`, now);
  await query(`DELETE FROM ${EXPIRY_TABLE} WHERE expires <= ?`, now);
}

function databasePath(url: URL, shown: string): string {
  const path = decodeURIComponent(url.pathname);
  if (url.host !== '' || !path.startsWith('/') || path.endsWith('/')) {
    throw new StartupError(
      `MCP_STORE_URL=${shown}: give the absolute path of the database file after sqlite:// (three slashes in all), as sqlite:///var/lib/mcp-devtools/store.db.`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new StartupError(`MCP_STORE_URL=${shown}: a sqlite URL takes no query or fragment; give only the file path.`);
  }
  return path;
}

/** Creates the directories (owner-only) and the file (mode 0600) if they are new; existing ones are left as they are. */
function prepareFile(path: string, shown: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StartupError(
      `MCP_STORE_URL=${shown}: cannot create the directory ${dirname(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    );
  }
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new StartupError(`MCP_STORE_URL=${shown}: cannot create the database file ${path}: ${code ?? (error as Error).message}.`);
  }
  if (!statSync(path).isFile()) throw new StartupError(`MCP_STORE_URL=${shown}: ${path} is not a file.`);
}
