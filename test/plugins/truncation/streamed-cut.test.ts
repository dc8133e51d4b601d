import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { utf8Chunks } from '../../../core/artifacts/utf8-chunks.js';
import { secretScrubber } from '../../../core/result/secret-scrubber.js';
import { RawResponseFiles } from '../../../plugins/truncation/raw-response-files.js';
import { cutRendering } from '../../../plugins/truncation/streamed-cut.js';
import { MAX_TEXT_CHARS, truncateForModel } from '../../../plugins/truncation/truncate-text.js';

const SECRET = 'streamed-cut-secret-9d2c';
const silent = { warn: () => {}, debug: () => {}, info: () => {}, error: () => {} } as never;

/** `text` in pieces of `size` characters, the last shorter. */
const piecesOf = (text: string, size: number): string[] =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('a rendering cut as its pieces are made', () => {
  const dir = mkdtempSync(join(tmpdir(), 'streamed-cut-'));
  const files = new RawResponseFiles(dir, 60_000, silent, () => Date.now());
  const scrub = secretScrubber([SECRET]);
  const whole = Array.from({ length: 6000 }, (_, i) => `  "line ${i}": "Ünïcödé 🚀 value ${i}",`).join('\n');

  it('gives the text truncateForModel gives, and a file that holds the whole text', async () => {
    for (const size of [1, 7, 4096, 50_000]) {
      const cut = await cutRendering(piecesOf(whole, size), scrub, () => files.open());
      expect('text' in cut).to.equal(true);
      const text = (cut as { text: string }).text;
      const saved = /saved at: `([^`]+)`/.exec(text)![1]!;
      expect(text).to.equal(truncateForModel(whole, saved));
      expect(readFileSync(saved, 'utf8') === whole).to.equal(true);
    }
  });

  it('gives a text within the limit joined, and writes no file', async () => {
    const short = whole.slice(0, MAX_TEXT_CHARS);
    let opened = 0;
    const cut = await cutRendering(piecesOf(short, 999), scrub, async () => (opened++, files.open()));
    expect(cut).to.deep.equal({ text: short });
    expect(opened).to.equal(0);
  });

  it('says so when a secret form shows, whichever pieces it is split across, so the whole text is scrubbed instead', async () => {
    for (const at of [10, 39_990, whole.length - 30]) {
      const withSecret = whole.slice(0, at) + SECRET + whole.slice(at);
      for (const size of [1, 5, 16_384]) expect(await cutRendering(piecesOf(withSecret, size), scrub, () => files.open())).to.deep.equal({ secretSeen: true });
    }
    // A scrubber that cannot say how long its forms are cannot check pieces.
    expect(await cutRendering([whole], (text: string) => text, undefined)).to.deep.equal({ secretSeen: true });
  });

  it('cuts without naming a file when it may not be saved or cannot be written', async () => {
    expect(await cutRendering(piecesOf(whole, 1000), scrub, undefined)).to.deep.equal({ text: truncateForModel(whole, undefined) });
    // A folder that cannot be made: a file stands where it would be.
    writeFileSync(join(dir, 'a-file'), '');
    const gone = new RawResponseFiles(join(dir, 'a-file', 'raw'), 60_000, silent, () => Date.now());
    expect(await cutRendering(piecesOf(whole, 1000), scrub, () => gone.open())).to.deep.equal({ text: truncateForModel(whole, undefined) });
  });
});

describe('utf8Chunks of a text in pieces', () => {
  it('gives the chunks of the joined text, pairs split between pieces included', () => {
    const text = '🚀a\ud800Ü'.repeat(5000) + 'end \udbff';
    for (const size of [1, 2, 3, 1000]) {
      const chunks = [...utf8Chunks(piecesOf(text, size), 1024)];
      expect(Buffer.concat(chunks).equals(Buffer.from(text, 'utf8'))).to.equal(true);
      expect(chunks.slice(0, -1).every((c) => c.length === 1024)).to.equal(true);
    }
    expect([...utf8Chunks([], 16)].map((c) => c.length)).to.deep.equal([0]);
  });
});
