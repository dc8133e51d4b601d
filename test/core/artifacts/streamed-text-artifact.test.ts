import { expect } from 'chai';
import { ARTIFACT_CHUNK_BYTES, ARTIFACT_CHUNK_NAMESPACE, ChunkedArtifactStore } from '../../../plugins/artifacts/chunked-artifact-store.js';
import { utf8Chunks } from '../../../core/artifacts/utf8-chunks.js';
import type { Principal } from '../../../core/identity/principal.js';
import { systemClock } from '../../../core/store/key-value-store.js';
import { openMemoryStore } from '../../../core/store/memory-store.js';
import { CountingStore } from '../../support/counting-store.js';

const alice: Principal = { subject: 'alice', groups: [], via: 'tokens' };

/** Text whose characters take 1, 2, 3 and 4 UTF-8 bytes, so chunk and slice ends fall inside characters. */
function mixedText(chars: number): string {
  const alphabet = ['a', 'é', '€', '😀', '\n', '"', 'Ж', '中'];
  let out = '';
  for (let i = 0; out.length < chars; i++) out += alphabet[(i * 7 + (i >> 3)) % alphabet.length];
  return out;
}

describe('text artifacts are encoded chunk by chunk as they are saved', () => {
  for (const chars of [0, 1, 8191, 8192, 8193, ARTIFACT_CHUNK_BYTES, 3 * ARTIFACT_CHUNK_BYTES + 17, 200_000]) {
    it(`stores the same bytes as the whole UTF-8 encoding would, cut at the same offsets (${chars} characters)`, async () => {
      const text = mixedText(chars);
      const store = new CountingStore(openMemoryStore('t', 1000));
      const artifacts = new ChunkedArtifactStore(store, systemClock, 60_000);
      const saved = await artifacts.save(alice, 'application/json', text);
      const whole = Buffer.from(text, 'utf8');
      expect(saved.bytes).to.equal(whole.length);
      const pieces: Buffer[] = [];
      for (let offset = 0, eof = false; !eof;) {
        const chunk = await artifacts.read(alice, saved.artifactId, offset, ARTIFACT_CHUNK_BYTES);
        pieces.push(Buffer.from(chunk.data, 'base64'));
        ({ nextOffset: offset, eof } = chunk);
      }
      expect(Buffer.concat(pieces).equals(whole)).to.equal(true);
      // One stored chunk per read: the chunks were cut at the same offsets (an empty artifact reads none).
      expect(store.gets.get(ARTIFACT_CHUNK_NAMESPACE) ?? 0).to.equal(Math.ceil(whole.length / ARTIFACT_CHUNK_BYTES));
      await store.close();
    });
  }

  it('keeps a lone surrogate as the whole encoding does (a replacement character), even at a slice end', () => {
    const text = 'x'.repeat(8191) + '\ud83d' + 'y'.repeat(10) + '\ude00';
    expect(Buffer.concat([...utf8Chunks(text, 1000)]).equals(Buffer.from(text, 'utf8'))).to.equal(true);
  });
});
