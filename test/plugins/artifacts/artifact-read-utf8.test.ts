import { expect } from 'chai';
import type { ArtifactChunk, ArtifactStore } from '../../../core/artifacts/artifact-store.js';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { TOKENS } from '../../../core/tokens.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

/** With encoding "utf8", `data` is the text itself. */
type TextChunk = ArtifactChunk;

/** 1-, 2-, 3- and 4-byte characters in a cycle, so chunk boundaries fall inside characters of every length. */
function multilingualLog(lines: number): string {
  const words = ['build ok', 'café crème', '日本語のログ', 'rocket 🚀 launched', 'naïve ✓ done'];
  return Array.from({ length: lines }, (_, i) => `${String(i).padStart(5, '0')} ${words[i % words.length]}`).join('\n') + '\n';
}

describe('artifact_read with encoding "utf8"', () => {
  let kernel: TestKernel;
  let store: ArtifactStore;

  before(async () => {
    kernel = await startTestKernel();
    store = kernel.kernel.resolve<ArtifactStore>(TOKENS.ArtifactStore);
  });
  after(async () => {
    await kernel.close();
  });

  async function readText(artifactId: string, offset: number): Promise<TextChunk> {
    const result = await kernel.call('artifact_read', { artifactId, offset, encoding: 'utf8' });
    expect(result.isError, textOf(result)).to.equal(undefined);
    return JSON.parse(textOf(result)) as TextChunk;
  }

  it('pages through a text artifact in text chunks that never split a character, and reassembles it exactly', async () => {
    const log = multilingualLog(8_000); // about 190 KB: eight stored chunks
    const { artifactId, bytes } = await store.save(LOCAL_PRINCIPAL, 'text/plain', log);
    const parts: string[] = [];
    for (let offset = 0, eof = false; !eof;) {
      const chunk = await readText(artifactId, offset);
      expect(chunk.offset).to.equal(offset);
      expect(chunk.data).not.to.contain('\uFFFD');
      // Each chunk decodes on its own: it starts and ends on character boundaries.
      expect(Buffer.byteLength(chunk.data, 'utf8')).to.equal(chunk.nextOffset - chunk.offset);
      expect(Buffer.from(log, 'utf8').subarray(chunk.offset, chunk.nextOffset).toString('utf8')).to.equal(chunk.data);
      parts.push(chunk.data);
      ({ nextOffset: offset, eof } = chunk);
    }
    expect(parts.length).to.be.greaterThan(6);
    expect(parts.join('')).to.equal(log);
    expect(Buffer.byteLength(parts.join(''), 'utf8')).to.equal(bytes);
  });

  it('finishes a character cut by the stored chunk boundary instead of returning half of it', async () => {
    // 24,575 ASCII bytes, then a 4-byte emoji across the 24 KiB boundary.
    const text = `${'a'.repeat(24 * 1024 - 1)}🚀tail`;
    const { artifactId } = await store.save(LOCAL_PRINCIPAL, 'text/plain', text);
    const first = await readText(artifactId, 0);
    expect(first.data.endsWith('a🚀')).to.equal(true);
    expect(first.nextOffset).to.equal(24 * 1024 + 3);
    const second = await readText(artifactId, first.nextOffset);
    expect(second).to.deep.include({ data: 'tail', eof: true });
  });

  it('starts at the next character when the offset falls inside one, and says where it started', async () => {
    const { artifactId } = await store.save(LOCAL_PRINCIPAL, 'text/plain', 'x日本');
    const chunk = await readText(artifactId, 2); // inside 日 (bytes 1-3)
    expect(chunk).to.deep.include({ offset: 4, data: '本', nextOffset: 7, eof: true });
  });

  it('keeps an answer full of escape codes under the truncation limit, still whole when reassembled', async () => {
    const ansi = '\u001b[31mERROR\u001b[0m\t\u0007\n'.repeat(3_000);
    const { artifactId } = await store.save(LOCAL_PRINCIPAL, 'text/plain', ansi);
    const parts: string[] = [];
    for (let offset = 0, eof = false; !eof;) {
      const result = await kernel.call('artifact_read', { artifactId, offset, encoding: 'utf8' });
      expect(textOf(result).length).to.be.lessThan(40_000);
      expect(textOf(result)).not.to.contain('Response Truncated');
      const chunk = JSON.parse(textOf(result)) as TextChunk;
      parts.push(chunk.data);
      ({ nextOffset: offset, eof } = chunk);
    }
    expect(parts.join('')).to.equal(ansi);
  });

  it('refuses bytes that are not UTF-8 with an error that points to base64, which still reads them', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
    const { artifactId } = await store.save(LOCAL_PRINCIPAL, 'image/png', png);
    const refused = await kernel.call('artifact_read', { artifactId, encoding: 'utf8' });
    expect(refused.isError).to.equal(true);
    expect(textOf(refused)).to.equal(
      `Error: Artifact ${artifactId} (image/png) is not UTF-8 text in the bytes from offset 0: read it with encoding "base64".\nCode: unsupported_content`,
    );
    const base64 = JSON.parse(textOf(await kernel.call('artifact_read', { artifactId, encoding: 'base64' }))) as TextChunk;
    expect(Buffer.from(base64.data, 'base64').equals(png)).to.equal(true);
  });

  it('answers another principal exactly as for an unknown id', async () => {
    const { artifactId } = await store.save(LOCAL_PRINCIPAL, 'text/plain', 'secret log');
    const foreign = await kernel.call('artifact_read', { artifactId, encoding: 'utf8' }, { subject: 'bob', groups: [], via: 'tokens' });
    expect(textOf(foreign)).to.equal('Error: Artifact not found or expired\nCode: artifact_not_found');
  });
});
