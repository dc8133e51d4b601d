import { expect } from 'chai';
import { Readable } from 'node:stream';
import { BLOCK_BYTES, BodyBlocks } from '../../../core/http/body-blocks.js';
import { readBytesCapped } from '../../../core/http/read-body.js';
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
});
