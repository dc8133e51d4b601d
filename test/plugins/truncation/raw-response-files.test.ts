import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../../core/logging/logger.js';
import { RawResponseFiles, SYNC_WRITE_CHARS } from '../../../plugins/truncation/raw-response-files.js';

describe('the full text of truncated results on disk', () => {
  const logger = createLogger({ level: 'silent', secrets: [], destination: { write: () => true } });

  it('saves each text to an owner-only file in an owner-only folder', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    const path = await files.save('the whole text');
    files.stop();
    expect(readFileSync(path!, 'utf8')).to.equal('the whole text');
    expect(statSync(path!).mode & 0o777).to.equal(0o600);
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
  });

  it('names every file apart, also for two servers sharing the folder in the same millisecond, and sweeps them all', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    let now = Date.now();
    const workers = [0, 1].map(() => new RawResponseFiles(dir, 60_000, logger, () => now));
    for (const files of workers) await files.start();
    const paths = await Promise.all(Array.from({ length: 200 }, (_, i) => workers[i % 2]!.save(`text ${i}`)));
    expect(new Set(paths).size).to.equal(200);
    paths.forEach((path, i) => expect(readFileSync(path!, 'utf8')).to.equal(`text ${i}`));
    now += 120_000;
    expect(await workers[0]!.sweep()).to.equal(200);
    for (const files of workers) files.stop();
    expect(readdirSync(dir)).to.deep.equal([]);
  });

  it('makes the folder again, owner-only, when it was removed while the server ran', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    rmSync(dir, { recursive: true });
    const path = await files.save('saved after all');
    files.stop();
    expect(readFileSync(path!, 'utf8')).to.equal('saved after all');
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
  });

  // Moderate texts are written in the same tick, longer ones a slice at a time through the thread pool: both
  // must leave the same bytes, owner-only, and remake a folder that vanished.
  for (const [name, length] of [
    ['written at once', SYNC_WRITE_CHARS],
    ['written in slices', SYNC_WRITE_CHARS * 2 + 3],
  ] as const) {
    it(`saves a text of ${length} characters ${name} byte for byte, after its folder vanished`, async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
      const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
      await files.start();
      rmSync(dir, { recursive: true });
      const unit = 'ab\u00e9\ud83d\ude00\n';
      const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length - 1) + 'z';
      const path = await files.save(text);
      files.stop();
      expect(readFileSync(path!).equals(Buffer.from(text, 'utf8'))).to.equal(true);
      expect(statSync(path!).mode & 0o777).to.equal(0o600);
      expect(statSync(dir).mode & 0o777).to.equal(0o700);
      rmSync(dir, { recursive: true });
    });
  }

  it('writes a text at once byte for byte where a character straddles its 64 KiB encoding buffer, lone surrogates too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raw-files-'));
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    // A pair, a three-byte and a two-byte character ending at each byte around the buffer's end, then lone halves.
    for (const [shift, character] of [0, 1, 2, 3].flatMap((shift) => ['\ud83d\ude00', '\u20ac', '\u00e9'].map((c) => [shift, c] as const))) {
      const text = `${'x'.repeat(64 * 1024 - shift)}${character}${'y'.repeat(70 * 1024)}\ud800 and \udfff, last \ud83d`;
      const path = await files.save(text);
      expect(readFileSync(path!).equals(Buffer.from(text, 'utf8')), `${shift} ${character}`).to.equal(true);
    }
    files.stop();
    rmSync(dir, { recursive: true });
  });

  // A rendering in pieces (a TOON page) is saved piece by piece: in this tick when it is already made, through
  // the thread pool when it is made as it is written. Pairs split between pieces, characters across the writers'
  // buffers (64 KiB in this tick, 1 MiB through the pool) and a lone high surrogate at the very end must come out
  // as Buffer.from writes the whole text.
  for (const [name, now] of [
    ['in this tick', true],
    ['through the thread pool', false],
  ] as const) {
    it(`writes a text given in pieces ${name} byte for byte, split pairs and buffer edges included`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'raw-files-'));
      const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
      await files.start();
      const unit = 'ab\u00e9\ud83d\ude00\u20ac\n';
      // Over 1 MiB of UTF-8, and shifted by a character, so that the thread pool's 1 MiB buffer ends within one.
      const text = `x${unit.repeat(100_000)}\ud800 and \udfff, last \ud83d`;
      for (const size of [1_000, 16_384, 65_537]) {
        const writer = (await files.open(now))!;
        for (let at = 0; at < text.length; at += size) await writer.write(text.slice(at, at + size));
        const path = await writer.close();
        expect(readFileSync(path!).equals(Buffer.from(text, 'utf8')), `${size}`).to.equal(true);
        expect(statSync(path!).mode & 0o777).to.equal(0o600);
      }
      files.stop();
      rmSync(dir, { recursive: true });
    });
  }

  // A big value's rendering is written as it is made, piece by piece (what it holds meanwhile is the bench's to
  // measure, docs/benchmarks.md): every piece lands, in order, characters past ASCII whole.
  it('writes a 16 MiB text given in pieces, whole and in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raw-files-'));
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    const piece = 'x'.repeat(16 * 1024 - 1) + '\u00e9'; // one string for every piece: they allocate nothing of their own
    const writer = (await files.open(false))!;
    for (let i = 0; i < 1024; i++) await writer.write(piece);
    const path = await writer.close();
    expect(statSync(path!).size).to.equal(1024 * 16 * 1024 + 1024);
    expect(readFileSync(path!).subarray(-3).toString('utf8')).to.equal('x\u00e9');
    files.stop();
    rmSync(dir, { recursive: true });
  });

  it('removes a file given in pieces that is discarded, written in this tick or not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raw-files-'));
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    for (const now of [true, false]) {
      const writer = (await files.open(now))!;
      await writer.write('0123456789');
      await writer.discard();
    }
    files.stop();
    expect(readdirSync(dir)).to.deep.equal([]);
    rmSync(dir, { recursive: true });
  });

  // The review's findings: in a shared /tmp, another user can make the folder first, open to all, or plant a
  // symbolic link by its name. Neither may receive a result.
  it("never writes through a symbolic link planted at the folder's name: a private folder is used instead", async () => {
    const base = mkdtempSync(join(tmpdir(), 'raw-files-'));
    const target = join(base, 'attacker');
    mkdirSync(target, { mode: 0o777 });
    const dir = join(base, 'raw');
    symlinkSync(target, dir);
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    const path = await files.save('not for the attacker');
    files.stop();
    expect(readdirSync(target)).to.deep.equal([]);
    expect(files.folder).not.to.equal(dir);
    expect(path!.startsWith(`${files.folder}/`)).to.equal(true);
    expect(lstatSync(files.folder).mode & 0o777).to.equal(0o700);
    expect(readFileSync(path!, 'utf8')).to.equal('not for the attacker');
  });

  it('never writes into a folder another user made (open to all), in its place or by its owner check', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const someoneElse = (process.getuid?.() ?? 0) + 4242;
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now(), someoneElse);
    await files.start();
    const path = await files.save('private');
    files.stop();
    expect(readdirSync(dir)).to.deep.equal([]);
    expect(path!.startsWith(`${files.folder}/`)).to.equal(true);
  });

  it('refuses a 0777 folder really owned by another user (run as root, as CI may be)', async function () {
    if (process.getuid?.() !== 0) this.skip();
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    chownSync(dir, 65534, 65534);
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    await files.save('private');
    files.stop();
    expect(readdirSync(dir)).to.deep.equal([]);
    expect(files.folder).not.to.equal(dir);
  });

  it('tightens a folder of its own that was left open to owner-only, and uses it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    const path = await files.save('mine');
    files.stop();
    expect(files.folder).to.equal(dir);
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
    expect(path!.startsWith(`${dir}/`)).to.equal(true);
  });
});
