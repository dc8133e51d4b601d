import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { ArtifactChunk } from '../../../core/artifacts/artifact-store.js';
import {
  ARTIFACT_CHUNK_BYTES,
  ARTIFACT_CHUNK_NAMESPACE,
  ARTIFACT_META_NAMESPACE,
  artifactKey,
  ChunkedArtifactStore,
} from '../../../plugins/artifacts/chunked-artifact-store.js';
import { ToolError } from '../../../core/errors/tool-error.js';
import type { Principal } from '../../../core/identity/principal.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { openStore } from '../../../core/store/open-store.js';

const alice: Principal = { subject: 'alice', groups: [], via: 'tokens' };
const bob: Principal = { subject: 'bob', groups: [], via: 'tokens' };
const aliceViaOidc: Principal = { subject: 'alice', groups: [], via: 'oidc' };
const RETENTION_MS = 300_000;

/** A real store that also counts the bytes of chunk entries it hands out: what a read loads. */
function counting(store: KeyValueStore): KeyValueStore & { loaded: number } {
  const wrapped = Object.create(store) as KeyValueStore & { loaded: number };
  wrapped.loaded = 0;
  wrapped.get = async <T>(namespace: string, key: string): Promise<T | undefined> => {
    const value = await store.get<T>(namespace, key);
    if (namespace === ARTIFACT_CHUNK_NAMESPACE && typeof value === 'string') wrapped.loaded += Buffer.from(value, 'base64').length;
    return value;
  };
  return wrapped;
}

async function readAll(artifacts: ChunkedArtifactStore, owner: Principal, id: string): Promise<{ bytes: Buffer; chunks: ArtifactChunk[] }> {
  const chunks: ArtifactChunk[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const chunk = await artifacts.read(owner, id, offset, ARTIFACT_CHUNK_BYTES);
    chunks.push(chunk);
    offset = chunk.nextOffset;
    eof = chunk.eof;
  }
  return { bytes: Buffer.concat(chunks.map((c) => Buffer.from(c.data, 'base64'))), chunks };
}

async function refusal(work: Promise<unknown>): Promise<ToolError> {
  try {
    await work;
  } catch (error) {
    return error as ToolError;
  }
  throw new Error('expected a refusal');
}

for (const kind of ['memory', 'sqlite'] as const) {
  describe(`ChunkedArtifactStore over the real ${kind} store`, () => {
    let store: KeyValueStore & { loaded: number };
    let now: number;
    let artifacts: ChunkedArtifactStore;

    beforeEach(async () => {
      const url = kind === 'memory' ? 'memory://' : `sqlite://${join(mkdtempSync(join(tmpdir(), 'mcp-devtools-artifacts-')), 'store.db')}`;
      store = counting(await openStore(url));
      now = Date.parse('2026-10-07T16:20:11.402Z');
      artifacts = new ChunkedArtifactStore(store, { now: () => now }, RETENTION_MS);
    });
    afterEach(async () => {
      await store.close();
    });

    it('gives back exactly the bytes saved, in bounded chunks, loading only what each read returns', async () => {
      const content = Buffer.concat([randomBytes(100_000), Buffer.from('ünïcödé 日本語 🚀', 'utf8')]);
      const saved = await artifacts.save(alice, 'application/octet-stream', content);
      expect(saved.bytes).to.equal(content.length);
      store.loaded = 0;
      const { bytes, chunks } = await readAll(artifacts, alice, saved.artifactId);
      expect(bytes.equals(content)).to.equal(true);
      expect(chunks).to.have.length(Math.ceil(content.length / ARTIFACT_CHUNK_BYTES));
      for (const c of chunks) {
        expect(Buffer.from(c.data, 'base64').length).to.be.at.most(ARTIFACT_CHUNK_BYTES);
        expect(c).to.include({ artifactId: saved.artifactId, mimeType: 'application/octet-stream', bytes: content.length });
      }
      expect(chunks.map((c) => c.eof)).to.deep.equal([...chunks.slice(1).map(() => false), true]);
      expect(store.loaded).to.equal(content.length);
    });

    it('saves text as UTF-8 and an empty artifact as one empty, final chunk', async () => {
      const text = await artifacts.save(alice, 'application/json', '{"data":"日本語"}');
      expect((await readAll(artifacts, alice, text.artifactId)).bytes.toString('utf8')).to.equal('{"data":"日本語"}');
      expect(text.bytes).to.equal(Buffer.byteLength('{"data":"日本語"}'));
      const empty = await artifacts.save(alice, 'application/json', '');
      expect(await artifacts.read(alice, empty.artifactId, 0, ARTIFACT_CHUNK_BYTES)).to.deep.include({
        bytes: 0,
        offset: 0,
        nextOffset: 0,
        eof: true,
        data: '',
      });
    });

    it('reads from an unaligned offset to the end of that stored chunk', async () => {
      const content = randomBytes(ARTIFACT_CHUNK_BYTES * 2);
      const { artifactId } = await artifacts.save(alice, 'application/octet-stream', content);
      const chunk = await artifacts.read(alice, artifactId, 1000, ARTIFACT_CHUNK_BYTES);
      expect(chunk.nextOffset).to.equal(ARTIFACT_CHUNK_BYTES);
      expect(Buffer.from(chunk.data, 'base64').equals(content.subarray(1000, ARTIFACT_CHUNK_BYTES))).to.equal(true);
      const small = await artifacts.read(alice, artifactId, ARTIFACT_CHUNK_BYTES, 10);
      expect(Buffer.from(small.data, 'base64').equals(content.subarray(ARTIFACT_CHUNK_BYTES, ARTIFACT_CHUNK_BYTES + 10))).to.equal(true);
    });

    it('issues unguessable ids: 128 random bits, never repeated', async () => {
      const count = kind === 'memory' ? 200 : 20; // SQLite syncs each write to disk
      const ids = new Set<string>();
      for (let i = 0; i < count; i++) ids.add((await artifacts.save(alice, 'text/plain', 'x')).artifactId);
      expect(ids.size).to.equal(count);
      for (const id of ids) expect(id).to.match(/^[0-9a-f]{32}$/);
    });

    it('answers another principal, an unknown id and a malformed id with the same "Artifact not found or expired"', async () => {
      const { artifactId } = await artifacts.save(alice, 'application/json', '{"data":1}');
      const refusals = await Promise.all([
        refusal(artifacts.read(bob, artifactId, 0, 10)),
        refusal(artifacts.read(aliceViaOidc, artifactId, 0, 10)),
        refusal(artifacts.read(alice, randomBytes(16).toString('hex'), 0, 10)),
        refusal(artifacts.read(alice, '../../etc/passwd', 0, 10)),
      ]);
      for (const e of refusals) expect([e.code, e.message]).to.deep.equal(['artifact_not_found', 'Artifact not found or expired']);
      expect((await artifacts.read(alice, artifactId, 0, 100)).eof).to.equal(true);
    });

    it('expires after the retention period and removes the entries', async () => {
      const { artifactId } = await artifacts.save(alice, 'application/json', randomBytes(ARTIFACT_CHUNK_BYTES + 5));
      now += RETENTION_MS - 1;
      expect((await artifacts.read(alice, artifactId, 0, 10)).bytes).to.equal(ARTIFACT_CHUNK_BYTES + 5);
      now += 1;
      const e = await refusal(artifacts.read(alice, artifactId, 0, 10));
      expect(e.message).to.equal('Artifact not found or expired');
      const key = artifactKey(alice, artifactId);
      expect(await store.get(ARTIFACT_META_NAMESPACE, key)).to.equal(undefined);
      expect(await store.get(ARTIFACT_CHUNK_NAMESPACE, `${key}:0`)).to.equal(undefined);
      expect(await store.get(ARTIFACT_CHUNK_NAMESPACE, `${key}:1`)).to.equal(undefined);
    });

    it("refuses an offset past the end, naming the artifact's size", async () => {
      const { artifactId } = await artifacts.save(alice, 'application/json', '0123456789');
      const e = await refusal(artifacts.read(alice, artifactId, 11, 10));
      expect(e.code).to.equal('invalid_arguments');
      expect(e.message).to.contain('from 0 to 10');
      expect(await artifacts.read(alice, artifactId, 10, 10)).to.deep.include({ offset: 10, nextOffset: 10, eof: true, data: '' });
    });

    it('keys entries by a digest of the owner, never the principal name', async () => {
      const { artifactId } = await artifacts.save(alice, 'application/json', '{}');
      const key = artifactKey(alice, artifactId);
      expect(key).not.to.contain('alice');
      expect(key).to.match(/^[0-9a-f]{32}:[0-9a-f]{32}$/);
      expect(await store.get(ARTIFACT_META_NAMESPACE, key)).to.include({ bytes: 2, chunks: 1, mimeType: 'application/json' });
    });
  });
}
