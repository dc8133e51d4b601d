import { expect } from 'chai';
import { HandledBodies } from '../../../core/http/handled-bodies.js';
import { PARSE_IN_PIECES_BYTES, parseJsonBytes } from '../../../core/http/parse-json-bytes.js';
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

/** A GET of `path` from `vendor` through the upstream client, with room for a few big pages. */
function getFrom(vendor: MockUpstream, path: string, ctx = plainToolContext({})) {
  return ciClient(vendor.url, { auth: () => ({ 'circle-token': 'CCIPAT_x' }), maxBytes: 16 * PARSE_IN_PIECES_BYTES }).send(ctx, { method: 'GET', path });
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
    const response = await getFrom(vendor, '/api/v2/big', ctx);
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
    const response = await getFrom(vendor, '/api/v2/big', plainToolContext({ handledBodies }));
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

describe('which bodies are parsed from their bytes: those whose whole text would be a large string', () => {
  let vendor: MockUpstream;
  // 70 KB either way: as UTF-16 (a curly quote or a CJK character makes the whole text so) that is 140 KB.
  const wide = bigPage(70 * 1024);
  const ascii = { text: wide.text.replace(/[^ -~]/g, '?') };

  before(async () => {
    vendor = await MockUpstream.start();
    vendor.on('GET', '/api/v2/wide', { body: wide.text, headers: { 'content-type': 'application/json' } });
    vendor.on('GET', '/api/v2/ascii', { body: ascii.text, headers: { 'content-type': 'application/json' } });
  });
  after(() => vendor.close());

  it('parses 70 KB with characters past Latin-1 from its bytes, and gives the value and text JSON.parse would', async () => {
    const response = await getFrom(vendor, '/api/v2/wide');
    expect(Object.getOwnPropertyDescriptor(response, 'text')?.get, 'the text is decoded only when read').to.be.a('function');
    expect(response.body).to.deep.equal(wide.value);
    expect(response.text).to.equal(wide.text);
  });

  it('decodes 70 KB of ASCII whole, as a small body', async () => {
    const response = await getFrom(vendor, '/api/v2/ascii');
    expect(Object.getOwnPropertyDescriptor(response, 'text')?.value).to.equal(ascii.text);
    expect(response.body).to.deep.equal(JSON.parse(ascii.text));
  });
});

describe('big upstream bodies nested too deep: refused as a small one is, without walking the ones that are not', () => {
  let vendor: MockUpstream;
  const filler = bigPage(PARSE_IN_PIECES_BYTES + 1024).text;
  // 600 levels inside one member, in a page too big to parse whole: past MAX_BODY_DEPTH (512) however it is read.
  const deep = `{"filler": ${filler}, "deep": ${'['.repeat(600)}${']'.repeat(600)}}`;
  // The same 600 levels inside one element of the page's big array, among elements read a batch at a time (ASCII).
  const deepElement = bigPage(2 * PARSE_IN_PIECES_BYTES)
    .text.replace(/[^ -~]/g, '?')
    .replace('{"id":300,', `{"id":300,"deep":${'['.repeat(600)}${']'.repeat(600)},`);
  // Exactly at the limit: the innermost array sits at level 512 (the root at 0), which is allowed.
  const atLimit = `{"filler": ${filler}, "deep": ${'['.repeat(512)}${']'.repeat(512)}}`;

  before(async () => {
    vendor = await MockUpstream.start();
    vendor.on('GET', '/api/v2/deep', { body: deep, headers: { 'content-type': 'application/json' } });
    vendor.on('GET', '/api/v2/deep-element', { body: deepElement, headers: { 'content-type': 'application/json' } });
    vendor.on('GET', '/api/v2/at-limit', { body: atLimit, headers: { 'content-type': 'application/json' } });
  });
  after(() => vendor.close());

  it('refuses a body with an array 600 levels deep', async () => {
    const error = await getFrom(vendor, '/api/v2/deep').then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error?.code).to.equal('upstream_invalid_body');
    expect(error?.message).to.match(/nested more than 512 levels deep/);
  });

  it('refuses a page whose big array holds an element 600 levels deep', async () => {
    expect(deepElement).to.include('"deep"');
    const error = await getFrom(vendor, '/api/v2/deep-element').then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error?.code).to.equal('upstream_invalid_body');
    expect(error?.message).to.match(/nested more than 512 levels deep/);
  });

  it('accepts one whose deepest array is at level 512', async () => {
    const response = (await getFrom(vendor, '/api/v2/at-limit')) as { body: { deep: unknown } };
    let depth = 0;
    for (let node = response.body.deep; Array.isArray(node) && node.length > 0; node = node[0] as unknown) depth++;
    expect(depth).to.equal(511);
  });
});

describe('parseJsonBytes: how deep the value nests, from the brackets it counted', () => {
  const big = bigPage(PARSE_IN_PIECES_BYTES + 1024).text;
  for (const [name, text, nesting] of [
    ['a flat page', big, 2],
    ['a member nested deep', `{"a": ${big}, "b": [[[[{"c": [1]}]]]]}`, 6],
    ['a big member nested deep', `[[${big}]]`, 4],
    ['deep inside a string, which does not count', `{"a": ${big}, "s": "[[[[[[[[[[{{{{"}`, 3],
  ] as const) {
    it(`${name}: ${nesting}`, () => {
      expect(parseJsonBytes(Buffer.from(text))?.nesting).to.equal(nesting);
    });
  }
});
