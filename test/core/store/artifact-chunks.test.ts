import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ARTIFACT_CHUNK_BYTES, ChunkedArtifactStore } from '../../../plugins/artifacts/chunked-artifact-store.js';
import { ToolError } from '../../../core/errors/tool-error.js';
import type { Principal } from '../../../core/identity/principal.js';
import { systemClock } from '../../../core/store/key-value-store.js';
import { CountingStore } from '../../support/counting-store.js';
import { BACKENDS, openTestStore } from '../../support/store-backends.js';

const MiB = 1024 * 1024;
const alice: Principal = { subject: 'alice', groups: [], via: 'tokens' };
const bob: Principal = { subject: 'bob', groups: [], via: 'tokens' };

// A job log of tens of MiB: a read must load only the chunks it returns, on every store.
for (const backend of BACKENDS) {
  describe(`Chunked artifacts of 40 MiB on the ${backend.kind} store`, function () {
    this.timeout(120_000);
    const content = randomBytes(40 * MiB);
    let store: CountingStore;
    let artifacts: ChunkedArtifactStore;
    let artifactId: string;

    before(async () => {
      store = new CountingStore(await openTestStore(await backend.freshUrl()));
      artifacts = new ChunkedArtifactStore(store, systemClock, 3_600_000);
      const saved = await artifacts.save(alice, 'text/plain', content);
      expect(saved.bytes).to.equal(content.length);
      artifactId = saved.artifactId;
    });
    after(() => store.close());
    beforeEach(() => store.reset());

    it('reads one stored chunk in the middle with one metadata get and one chunk get', async () => {
      const offset = 320 * ARTIFACT_CHUNK_BYTES;
      const chunk = await artifacts.read(alice, artifactId, offset, ARTIFACT_CHUNK_BYTES);
      expect(Buffer.from(chunk.data, 'base64').equals(content.subarray(offset, offset + ARTIFACT_CHUNK_BYTES))).to.equal(true);
      expect(chunk).to.include({ offset, nextOffset: offset + ARTIFACT_CHUNK_BYTES, eof: false, bytes: content.length });
      expect(Object.fromEntries(store.gets)).to.deep.equal({ 'artifact-meta': 1, 'artifact-chunk': 1 });
    });

    it('reads from an unaligned offset to the end of its chunk only, loading that one chunk', async () => {
      const offset = 20 * MiB + 1000;
      const boundary = (Math.floor(offset / ARTIFACT_CHUNK_BYTES) + 1) * ARTIFACT_CHUNK_BYTES;
      const chunk = await artifacts.read(alice, artifactId, offset, ARTIFACT_CHUNK_BYTES);
      expect(Buffer.from(chunk.data, 'base64').equals(content.subarray(offset, boundary))).to.equal(true);
      expect(chunk.nextOffset).to.equal(boundary);
      expect(store.gets.get('artifact-chunk')).to.equal(1);
      expect(store.bytesRead).to.be.below(2 * ARTIFACT_CHUNK_BYTES);
    });

    it('reads the last 3 MiB to the last byte following nextOffset, loading each chunk once', async () => {
      const start = content.length - 3 * MiB;
      const pieces: Buffer[] = [];
      let offset = start;
      let eof = false;
      let reads = 0;
      while (!eof) {
        const chunk = await artifacts.read(alice, artifactId, offset, MiB);
        pieces.push(Buffer.from(chunk.data, 'base64'));
        ({ nextOffset: offset, eof } = chunk);
        reads++;
      }
      expect(Buffer.concat(pieces).equals(content.subarray(start))).to.equal(true);
      // A read never returns more than one stored chunk, so memory stays bounded whatever maxBytes asks for.
      const spanned = Math.floor((content.length - 1) / ARTIFACT_CHUNK_BYTES) - Math.floor(start / ARTIFACT_CHUNK_BYTES) + 1;
      expect(reads).to.equal(spanned);
      expect(store.gets.get('artifact-chunk')).to.equal(spanned);
    });

    it('answers another principal "not found" after one metadata get, without touching a chunk', async () => {
      let refused: unknown;
      try {
        await artifacts.read(bob, artifactId, 0, MiB);
      } catch (error) {
        refused = error;
      }
      expect(refused).to.be.instanceOf(ToolError);
      expect((refused as ToolError).code).to.equal('artifact_not_found');
      expect(Object.fromEntries(store.gets)).to.deep.equal({ 'artifact-meta': 1 });
    });
  });
}
