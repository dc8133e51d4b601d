import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { BLOCK_BYTES, BodyBlocks } from '../../../core/http/body-blocks.js';
import { readBytesCapped } from '../../../core/http/read-body.js';
import { freeBytes } from '../../../core/http/handled-bodies.js';
import { ALWAYS_MAPPED_BYTES, MAPPED_FROM_BYTES } from '../../../core/http/mapped-bytes.js';
import { PARSE_IN_PIECES_BYTES } from '../../../core/http/parse-json-bytes.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ciClient } from '../../support/ci-client.js';
import { plainToolContext } from '../../support/tool-context.js';

/** Bytes with characters of 1 to 4 UTF-8 bytes, so that chunk and block edges fall inside characters. */
function mixedBytes(length: number): Buffer {
  const unit = Buffer.from('a-é-€-😀-{"k":[1,2]}\n', 'utf8');
  const bytes = Buffer.alloc(length);
  for (let at = 0; at < length; at += unit.length) unit.copy(bytes, at, 0, Math.min(unit.length, length - at));
  return bytes;
}

/** `bytes` cut into chunks of the given sizes, round robin; each chunk a view into one shared buffer, as undici hands them. */
function chunksOf(bytes: Buffer, sizes: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('bodies of unknown length, gathered in blocks as they come', () => {
  it('gives back exactly the bytes sent, across several blocks, and leaves the network chunks intact', () => {
    const sent = mixedBytes(3 * BLOCK_BYTES + 12_345);
    const copy = Buffer.from(sent);
    const blocks = new BodyBlocks();
    for (const chunk of chunksOf(sent, [65_536, 7, 16_384, 1, 300_001])) blocks.add(chunk);
    const whole = blocks.whole();
    expect(whole.equals(copy)).to.equal(true);
    // The chunks were views of the sender's buffer: copied into blocks, never freed under their owner.
    expect(sent.equals(copy)).to.equal(true);
    expect(blocks.total).to.equal(copy.length);
  });

  it('gives back a small body, one chunk or none, as it came', () => {
    const one = new BodyBlocks();
    const chunk = Buffer.from('{"ok":true}');
    one.add(chunk);
    expect(one.whole().toString()).to.equal('{"ok":true}');
    expect(chunk.toString()).to.equal('{"ok":true}');
    expect(new BodyBlocks().whole().length).to.equal(0);
  });

  it('gathers a body of a declared length in one buffer: as long, shorter or longer than it said, byte for byte', () => {
    const sent = mixedBytes(BLOCK_BYTES + 4_321);
    for (const declared of [sent.length, sent.length + 1_000, 70_000, 1]) {
      const body = new BodyBlocks(16 * BLOCK_BYTES, declared);
      for (const chunk of chunksOf(sent, [65_536, 3, 10_007])) body.add(chunk);
      expect(body.whole().equals(sent), `declared ${declared}`).to.equal(true);
      expect(body.total).to.equal(sent.length);
    }
    // A body as long as it declared is that one buffer, its own memory: freed whole once handled.
    const exact = new BodyBlocks(16 * BLOCK_BYTES, sent.length);
    for (const chunk of chunksOf(sent, [65_536])) exact.add(chunk);
    const whole = exact.whole();
    freeBytes(whole);
    expect(whole.length).to.equal(0);
  });

  it('gathers a big declared body into a mapping, and one longer than it declared past that mapping', () => {
    const sent = mixedBytes(ALWAYS_MAPPED_BYTES + BLOCK_BYTES + 5);
    const body = new BodyBlocks(2 * ALWAYS_MAPPED_BYTES, MAPPED_FROM_BYTES + 1);
    for (const chunk of chunksOf(sent, [1_048_573, 65_536])) body.add(chunk);
    const whole = body.whole();
    expect(whole.equals(sent)).to.equal(true);
    freeBytes(whole);
    expect(whole.length, 'freed: the mapping goes with it').to.equal(0);
  });

  it('reads a chunked body without a Content-Length byte for byte, and one longer than it declared', async () => {
    const sent = mixedBytes(2 * BLOCK_BYTES + 999);
    const chunked = await readBytesCapped(
      { headers: new Headers(), body: Readable.from(chunksOf(sent, [65_536, 4_097])) },
      16 * BLOCK_BYTES,
      'The test response',
    );
    expect(chunked.equals(sent)).to.equal(true);
    const declared = new Headers({ 'content-length': String(BLOCK_BYTES) });
    const longer = await readBytesCapped({ headers: declared, body: Readable.from(chunksOf(sent, [65_536])) }, 16 * BLOCK_BYTES, 'The test response');
    expect(longer.equals(sent)).to.equal(true);
  });

  it('parses a big page sent chunked (no Content-Length) into the same value', async () => {
    const items = Array.from({ length: Math.ceil(PARSE_IN_PIECES_BYTES / 180) }, (_, id) => ({
      id,
      summary: `Ticket ${id}: déjà vu — 测试 😀 ${'x'.repeat(120)}`,
    }));
    const text = JSON.stringify({ total: items.length, items });
    const vendor = await MockUpstream.start();
    try {
      vendor.on('GET', '/api/v2/big', { body: text, headers: { 'content-type': 'application/json' }, dripMs: 0, dripChunks: 97 });
      const response = await ciClient(vendor.url, { auth: () => ({ 'circle-token': 'CCIPAT_x' }), maxBytes: 4 * PARSE_IN_PIECES_BYTES }).send(
        plainToolContext(),
        {
          method: 'GET',
          path: '/api/v2/big',
        },
      );
      expect(response.body).to.deep.equal({ total: items.length, items });
      expect(response.text).to.equal(text);
    } finally {
      await vendor.close();
    }
  });

  it('gives back a body that outgrows the heap kept for calls byte for byte, chunked or declared, and frees it whole', async () => {
    const sent = mixedBytes(MAPPED_FROM_BYTES + 3 * BLOCK_BYTES + 777);
    const cap = 4 * MAPPED_FROM_BYTES;
    const chunked = await readBytesCapped({ headers: new Headers(), body: Readable.from(chunksOf(sent, [65_536, 4_097, 1])) }, cap, 'The test response');
    const declared = new Headers({ 'content-length': String(sent.length) });
    const sized = await readBytesCapped({ headers: declared, body: Readable.from(chunksOf(sent, [65_536])) }, cap, 'The test response');
    for (const body of [chunked, sized]) {
      expect(body.equals(sent)).to.equal(true);
      freeBytes(body);
      expect(body.length, 'freed: the memory is gone with it').to.equal(0);
    }
    expect(sent.length).to.be.above(MAPPED_FROM_BYTES); // the chunks' own buffer is never freed under its owner
  });

  it('gives back a body byte for byte that outgrows its first mapping, with a cap above it', () => {
    const sent = mixedBytes(ALWAYS_MAPPED_BYTES + BLOCK_BYTES + 5);
    const blocks = new BodyBlocks(2 * ALWAYS_MAPPED_BYTES);
    for (const chunk of chunksOf(sent, [1_048_573, 65_536])) blocks.add(chunk);
    expect(blocks.whole().equals(sent)).to.equal(true);
  });

  // glibc serves blocks of 1 MiB from a heap that it does not give back (it keeps 16 MiB of freed heap once the
  // server has freed its 8 MiB block at start-up): copied into a whole at the end, a chunked body was resident
  // twice over at the end of its read, measured 2.28x a 28 MiB body, and the heap kept the blocks' memory
  // through the parse. A body past MAPPED_FROM_BYTES goes into one mapping as it comes: 1.56x (the blocks of
  // its first 8 MiB, and the chunks'). A process of its own, so that the heap is as a server's after start-up.
  it('reads a 28 MiB chunked body with a resident peak under 1.75 times its size', function () {
    if (process.platform !== 'linux') this.skip(); // /proc/self/status
    this.timeout(60_000);
    const module = (path: string): string => JSON.stringify(new URL(path, import.meta.url).href);
    const script = `
      import { readFileSync } from 'node:fs';
      import { Readable } from 'node:stream';
      import { readBytesCapped } from ${module('../../../core/http/read-body.js')};
      import { keepMallocHeapOfBigCalls } from ${module('../../../server/cli/malloc-heap.js')};
      const kib = (field) => parseInt(readFileSync('/proc/self/status', 'utf8').split('\\n').find((line) => line.startsWith(field + ':')).slice(field.length + 1).trim(), 10);
      keepMallocHeapOfBigCalls();
      globalThis.gc();
      const source = Buffer.alloc(28 * 1024 * 1024, 97); // undici hands over views of the socket's reads
      const chunks = function* () { for (let at = 0; at < source.length; at += 65536) yield source.subarray(at, at + 65536); };
      const before = kib('VmHWM');
      const body = await readBytesCapped({ headers: new Headers(), body: Readable.from(chunks()) }, 32 * 1024 * 1024, 'The body');
      process.stdout.write(JSON.stringify({ length: body.length, grewKiB: kib('VmHWM') - before }));`;
    const run = (): { length: number; grewKiB: number } =>
      JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })) as {
        length: number;
        grewKiB: number;
      };
    const { length, grewKiB } = run();
    expect(length).to.equal(28 * 1024 * 1024);
    expect(grewKiB * 1024).to.be.below(1.75 * length);
  });
});
