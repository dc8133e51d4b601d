import { expect } from 'chai';
import { HandledBodies } from '../../../core/http/handled-bodies.js';
import { PARSE_IN_PIECES_BYTES } from '../../../core/http/parse-json-bytes.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ciClient } from '../../support/ci-client.js';
import { plainToolContext } from '../../support/tool-context.js';

/** A JSON page of `bytes` or a little more, with characters outside Latin-1 (as Jira pages have). */
function bigPage(bytes: number): { text: string; value: unknown } {
  const items: Array<{ id: number; summary: string }> = [];
  let size = 0;
  for (let id = 0; size < bytes; id++) {
    const item = { id, summary: `Ticket ${id}: déjà vu — 测试 ${'x'.repeat(200)}` };
    items.push(item);
    size += Buffer.byteLength(JSON.stringify(item)) + 1;
  }
  const value = { total: items.length, items };
  return { text: JSON.stringify(value), value };
}

describe('big upstream bodies: the bytes are freed once the handler returns, not held beside the value', () => {
  let vendor: MockUpstream;
  const page = bigPage(PARSE_IN_PIECES_BYTES + 1024);

  before(async () => {
    vendor = await MockUpstream.start();
    vendor.on('GET', '/api/v2/big', { body: page.text, headers: { 'content-type': 'application/json' } });
  });
  after(() => vendor.close());

  it('keeps the parsed value whole and the text readable until the handler returns, then empties the bytes', async () => {
    const handledBodies = new HandledBodies();
    const ctx = plainToolContext({ handledBodies });
    const response = await ciClient(vendor.url, { auth: () => ({ 'circle-token': 'CCIPAT_x' }), maxBytes: 16 * PARSE_IN_PIECES_BYTES }).send(ctx, {
      method: 'GET',
      path: '/api/v2/big',
    });
    expect(response.body).to.deep.equal(page.value);
    const descriptor = Object.getOwnPropertyDescriptor(response, 'text');
    expect(descriptor?.get, 'a big body decodes its text lazily').to.be.a('function');
    handledBodies.release();
    expect(response.body).to.deep.equal(page.value);
    // Read after the handler returned, the text says so rather than coming back empty.
    expect(() => response.text).to.throw(/after its handler returned/);
  });

  it('leaves the text a handler read before returning as it was', async () => {
    const handledBodies = new HandledBodies();
    const response = await ciClient(vendor.url, { auth: () => ({ 'circle-token': 'CCIPAT_x' }), maxBytes: 16 * PARSE_IN_PIECES_BYTES }).send(
      plainToolContext({ handledBodies }),
      {
        method: 'GET',
        path: '/api/v2/big',
      },
    );
    expect(response.text).to.equal(page.text);
    handledBodies.release();
    expect(response.text).to.equal(page.text);
  });

  it('frees only a Buffer that owns its whole memory: a slice of a shared one is left alone', () => {
    const owned = Buffer.alloc(PARSE_IN_PIECES_BYTES, 1);
    const shared = Buffer.alloc(2 * PARSE_IN_PIECES_BYTES, 2);
    const slice = shared.subarray(PARSE_IN_PIECES_BYTES);
    const bodies = new HandledBodies();
    bodies.add(owned);
    bodies.add(slice);
    bodies.release();
    expect(owned.length).to.equal(0);
    expect(slice.length).to.equal(PARSE_IN_PIECES_BYTES);
    expect(shared.every((b) => b === 2)).to.equal(true);
  });
});
