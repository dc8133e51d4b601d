/**
 * What one 16 MiB artifact (chunked at ARTIFACT_CHUNK_BYTES, 24 KiB, by ChunkedArtifactStore) costs in each store:
 * part of `npm run bench`, and runnable alone for docs/deployment.md:
 *   npm run build:tests && node --expose-gc build/test/bench/store-footprint.js [redis://127.0.0.1:6379/0]
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createClient } from '@keyv/redis';
import { ChunkedArtifactStore } from '../../plugins/artifacts/chunked-artifact-store.js';
import type { Principal } from '../../core/identity/principal.js';
import { systemClock, type KeyValueStore } from '../../core/store/key-value-store.js';
import { openStore } from '../../core/store/open-store.js';
import { sqliteFile } from '../support/store-backends.js';
import { median } from './stats.js';

const MiB = 1024 * 1024;
const owner: Principal = { subject: 'bench', groups: [], via: 'local' };

export interface FootprintRow {
  store: string;
  artifactBytes: number;
  /** What the store grew by: heap and buffers (memory), file and WAL (sqlite), used_memory (redis). */
  heldBytes: number;
  saveMs: number;
  readMs: number;
}

function heapAndBuffers(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

async function measure(label: string, store: KeyValueStore, footprint: () => Promise<number>): Promise<FootprintRow> {
  const artifacts = new ChunkedArtifactStore(store, systemClock, 3_600_000);
  const before = await footprint();
  let content: Buffer | undefined = randomBytes(16 * MiB);
  const started = process.hrtime.bigint();
  const { artifactId, bytes } = await artifacts.save(owner, 'application/json', content);
  const saveMs = Number(process.hrtime.bigint() - started) / 1e6;
  // eslint-disable-next-line no-useless-assignment -- drops the only reference, so the footprint below is measured without it
  content = undefined;
  const after = await footprint();
  const readStarted = process.hrtime.bigint();
  for (let offset = 0, eof = false; !eof;) ({ nextOffset: offset, eof } = await artifacts.read(owner, artifactId, offset, MiB));
  const readMs = Number(process.hrtime.bigint() - readStarted) / 1e6;
  await store.close();
  return { store: label, artifactBytes: bytes, heldBytes: after - before, saveMs, readMs };
}

const fileSize = (p: string): number => {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
};

/** One artifact into a fresh store of each kind: the memory and SQLite stores always, Redis when a URL is given. */
async function measureEach(redisUrl?: string): Promise<FootprintRow[]> {
  const rows = [await measure('memory', await openStore('memory://'), async () => heapAndBuffers())];
  const path = sqliteFile();
  rows.push(await measure('sqlite', await openStore(`sqlite://${path}`), async () => fileSize(path) + fileSize(`${path}-wal`)));
  if (redisUrl) {
    const raw = createClient({ url: redisUrl });
    await raw.connect();
    const used = async (): Promise<number> => Number(/used_memory:(\d+)/.exec(await raw.info('memory'))![1]);
    rows.push(await measure('redis', await openStore(redisUrl, { namespace: `bench-${Date.now()}` }), used));
    raw.destroy();
  }
  return rows;
}

/** The median of `runs` measurements of each store (held bytes, save and read times). */
export async function benchStoreFootprint(redisUrl?: string, runs = 3): Promise<FootprintRow[]> {
  const all: FootprintRow[][] = [];
  for (let i = 0; i < runs; i++) all.push(await measureEach(redisUrl));
  return all[0]!.map((first, i) => {
    const of = (pick: (r: FootprintRow) => number): number => median(all.map((rows) => pick(rows[i]!)));
    return {
      store: first.store,
      artifactBytes: first.artifactBytes,
      heldBytes: of((r) => r.heldBytes),
      saveMs: of((r) => r.saveMs),
      readMs: of((r) => r.readMs),
    };
  });
}

if (process.argv[1]?.endsWith('store-footprint.js')) {
  for (const row of await benchStoreFootprint(process.argv[2])) {
    console.log(
      `${row.store.padEnd(8)} holds ${(row.heldBytes / MiB).toFixed(1)} MiB for a 16 MiB artifact; save ${row.saveMs.toFixed(0)} ms; read back in 1 MiB pieces ${row.readMs.toFixed(0)} ms`,
    );
  }
}
