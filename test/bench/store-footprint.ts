/**
 * What one 16 MiB artifact (chunked at ARTIFACT_CHUNK_BYTES, 24 KiB, by ChunkedArtifactStore) costs in each store, for
 * docs/deployment.md. Not a test: run by hand, with a Redis URL for the Redis figure:
 *   npm run build:tests && node --expose-gc build/test/bench/store-footprint.js [redis://127.0.0.1:6379/0]
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createClient } from '@keyv/redis';
import { ChunkedArtifactStore } from '../../core/artifacts/chunked-artifact-store.js';
import type { Principal } from '../../core/pipeline/principal.js';
import { systemClock, type KeyValueStore } from '../../core/store/key-value-store.js';
import { openStore } from '../../core/store/open-store.js';
import { sqliteFile } from '../support/store-backends.js';

const MiB = 1024 * 1024;
const owner: Principal = { subject: 'bench', groups: [], via: 'local' };
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

function heapAndBuffers(): number {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

async function measure(label: string, store: KeyValueStore, footprint: () => Promise<number>): Promise<void> {
  const artifacts = new ChunkedArtifactStore(store, systemClock, 3_600_000);
  const before = await footprint();
  let content: Buffer | undefined = randomBytes(16 * MiB);
  const started = process.hrtime.bigint();
  const { artifactId } = await artifacts.save(owner, 'application/json', content);
  const saveMs = Number(process.hrtime.bigint() - started) / 1e6;
  content = undefined;
  const after = await footprint();
  const readStarted = process.hrtime.bigint();
  for (let offset = 0, eof = false; !eof; ) ({ nextOffset: offset, eof } = await artifacts.read(owner, artifactId, offset, MiB));
  const readMs = Number(process.hrtime.bigint() - readStarted) / 1e6;
  console.log(`${label.padEnd(8)} holds ${((after - before) / MiB).toFixed(1)} MiB for a 16 MiB artifact; save ${saveMs.toFixed(0)} ms; read back in 1 MiB pieces ${readMs.toFixed(0)} ms`);
  await store.close();
}

await measure('memory', await openStore('memory://'), async () => heapAndBuffers());

const path = sqliteFile();
const size = (p: string) => {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
};
await measure('sqlite', await openStore(`sqlite://${path}`), async () => size(path) + size(`${path}-wal`));

const redisUrl = process.argv[2];
if (redisUrl) {
  const raw = createClient({ url: redisUrl });
  await raw.connect();
  const used = async () => Number(/used_memory:(\d+)/.exec(await raw.info('memory'))![1]);
  await measure('redis', await openStore(redisUrl, { namespace: `bench-${Date.now()}` }), used);
  raw.destroy();
}
