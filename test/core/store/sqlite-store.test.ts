import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { StoreError, type KeyValueStore } from '../../../core/store/key-value-store.js';
import { sweepExpired } from '../../../core/store/sqlite-store.js';
import { uniqueNamespace } from '../../support/redis.js';
import { openTestStore, sqliteFile } from '../../support/store-backends.js';
import { inOtherProcess } from '../../support/store-process.js';
import { sleep } from '../../support/async.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** A raw connection to the database file, as another program on the host would have. */
function rawDatabase(path: string): { run(sql: string): Promise<void>; all<T>(sql: string, ...params: unknown[]): Promise<T[]>; close(): Promise<void> } {
  const db = new sqlite3.Database(path);
  return {
    run: (sql) => new Promise((resolve, reject) => db.run(sql, (error) => (error ? reject(error) : resolve()))),
    all: (sql, ...params) => new Promise((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as never)))),
    close: () => new Promise((resolve) => db.close(() => resolve())),
  };
}

describe('SQLite store (sqlite:///absolute/path.db)', () => {
  it('creates a new database file and its directories readable by the owner only, WAL file included', async () => {
    const path = sqliteFile('nested/deeper/store.db');
    const store = await openTestStore(`sqlite://${path}`);
    try {
      await store.set('cache', 'k', 'v', 60_000);
      expect(mode(path)).to.equal(0o600);
      expect(mode(dirname(path))).to.equal(0o700);
      expect(existsSync(`${path}-wal`)).to.equal(true);
      expect(mode(`${path}-wal`)).to.equal(0o600);
    } finally {
      await store.close();
    }
  });

  it('lets several processes write one file at the same time, each waiting its turn', async () => {
    const path = sqliteFile();
    const url = `sqlite://${path}`;
    const deployment = uniqueNamespace();
    const store = await openTestStore(url, { namespace: deployment });
    try {
      const writers = [1, 2, 3].map((n) => inOtherProcess(url, deployment, 'fill', 'chunks', `writer${n}`, '150'));
      const own: Promise<void>[] = [];
      for (let i = 0; i < 150; i++) own.push(store.set('chunks', `writer0:${i}`, { i }, 60_000));
      expect(await Promise.all(writers)).to.deep.equal([150, 150, 150]);
      await Promise.all(own);
      for (const writer of ['writer0', 'writer1', 'writer2', 'writer3']) {
        for (const i of [0, 74, 149]) {
          expect(await store.get<{ i: number }>('chunks', `${writer}:${i}`), `${writer}:${i}`).to.include({ i });
        }
      }
    } finally {
      await store.close();
    }
  });

  it('lets several processes start at once on a database file that does not exist yet', async () => {
    const url = `sqlite://${sqliteFile()}`;
    const deployment = uniqueNamespace();
    const starts = [1, 2, 3, 4].map((n) => inOtherProcess(url, deployment, 'fill', 'first', `writer${n}`, '5'));
    expect(await Promise.all(starts)).to.deep.equal([5, 5, 5, 5]);
    const store = await openTestStore(url, { namespace: deployment });
    try {
      expect(await store.get('first', 'writer4:4')).to.deep.include({ i: 4 });
    } finally {
      await store.close();
    }
  });

  it('sweeps expired entries nobody reads again out of the file, and keeps live ones', async () => {
    const path = sqliteFile();
    const deployment = uniqueNamespace();
    const store = await openTestStore(`sqlite://${path}`, { namespace: deployment, sweepIntervalMs: 100 });
    const raw = rawDatabase(path);
    const rows = async () => (await raw.all<{ n: number }>('SELECT count(*) AS n FROM keyv WHERE key LIKE ?', `${deployment}:%`))[0]!.n;
    try {
      for (let i = 0; i < 20; i++) await store.set('artifact-chunk', `old:${i}`, 'x'.repeat(1000), 100);
      await store.set('artifact-chunk', 'live', 'kept', 60_000);
      expect(await rows()).to.equal(21);
      let left = 21;
      for (let tries = 0; tries < 100 && left > 1; tries++) {
        await sleep(100);
        left = await rows();
      }
      expect(left).to.equal(1);
      expect(await store.get('artifact-chunk', 'live')).to.equal('kept');
      expect((await raw.all<{ n: number }>('SELECT count(*) AS n FROM mcp_expiry WHERE key LIKE ?', `${deployment}:artifact-chunk:%`))[0]!.n).to.equal(1);
    } finally {
      await raw.close();
      await store.close();
    }
  });

  it('never sweeps an entry that was written again with a new TTL after its old one ran out', async () => {
    const path = sqliteFile();
    const store = await openTestStore(`sqlite://${path}`, { sweepIntervalMs: 3_600_000 });
    const raw = rawDatabase(path);
    try {
      await store.set('approvals', 'req-7', { state: 'pending' }, 100);
      await sleep(200);
      await store.set('approvals', 'req-7', { state: 'granted' }, 60_000);
      await sweepExpired((sql, ...params) => raw.all(sql, ...params));
      expect(await store.get('approvals', 'req-7')).to.deep.equal({ state: 'granted' });
    } finally {
      await raw.close();
      await store.close();
    }
  });

  it('fails a write that cannot get the lock in time with a StoreError, and writes again once it is free', async () => {
    const path = sqliteFile();
    const store: KeyValueStore = await openTestStore(`sqlite://${path}`, { timeoutMs: 300 });
    const other = rawDatabase(path);
    try {
      await other.run('BEGIN EXCLUSIVE');
      let failure: unknown;
      try {
        await store.set('cache', 'k', 'v', 60_000);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(StoreError);
      expect((failure as Error).message).to.match(
        /^The sqlite store (failed a write in namespace cache: .*locked|did not answer a write in namespace cache within 300 ms)/,
      );
      await other.run('COMMIT');
      await store.set('cache', 'k', 'v', 60_000);
      expect(await store.get('cache', 'k')).to.equal('v');
    } finally {
      await other.close();
      await store.close();
    }
  });
});
