import { expect } from 'chai';
import { BATCH_BYTES, ObjectArrayBatches } from '../../../core/http/json-array-batches.js';
import { parseJsonBytes } from '../../../core/http/parse-json-bytes.js';
import { LARGE_STRING_BYTES } from '../../../core/text/large-string.js';

/** Jira-like issues; every fourth has curly quotes, accents, an emoji and CJK in its summary. */
function issues(count: number, summary = (i: number): string => (i % 4 === 0 ? `“Crème brûlée” ${i} – 🚀 日本語` : `Issue ${i}`)): unknown[] {
  return Array.from({ length: count }, (_, i) => ({ key: `PLAT-${i}`, fields: { summary: summary(i), description: 'plain ASCII text '.repeat(20) } }));
}

/**
 * The batch taken right after the array's first element, read on its own as the parser reads it: the elements
 * it holds and the bytes they span, or undefined when the batch was refused.
 */
function batchAfterFirst(elements: unknown[]): { batch: { elements: unknown[]; end: number } | undefined; bytes: Buffer; secondAt: number } {
  const bytes = Buffer.from(JSON.stringify(elements), 'utf8');
  const firstEnd = 1 + Buffer.byteLength(JSON.stringify(elements[0]), 'utf8');
  const batches = new ObjectArrayBatches(bytes);
  batches.read(firstEnd);
  const secondAt = firstEnd + 1; // past the comma
  return { batch: batches.take(secondAt), bytes, secondAt };
}

describe('ObjectArrayBatches: a big array of objects read a batch of elements at a time', () => {
  it('reads elements with characters past ASCII in batches, as the elements JSON.parse gives', () => {
    const page = issues(400);
    const { batch, bytes, secondAt } = batchAfterFirst(page);
    expect(batch, 'a batch, not element by element').not.to.equal(undefined);
    expect(batch!.end - secondAt).to.be.within(1, BATCH_BYTES);
    expect(bytes[batch!.end - 1]).to.equal('}'.charCodeAt(0));
    const expected = page.slice(1, 1 + batch!.elements.length);
    expect(expected.some((e) => JSON.stringify(e).includes('🚀'))).to.equal(true);
    expect(JSON.stringify(batch!.elements)).to.equal(JSON.stringify(expected));
    // The batch ends where an element ends: the next one starts right after the comma.
    expect(bytes.toString('utf8', batch!.end, batch!.end + 2)).to.equal(',{');
  });

  it('gives the U+FFFD the whole decode gives where the UTF-8 of an element is broken', () => {
    const page = issues(400, (i) => (i % 9 === 0 ? `cut here: \u00e9 end ${i}` : `Issue ${i}`));
    const bytes = Buffer.from(JSON.stringify({ issues: page }), 'utf8');
    // Each é (C3 A9) loses its second byte to a lone continuation byte of another sequence: still one byte each.
    for (let at = bytes.indexOf('\u00e9'); at !== -1; at = bytes.indexOf('\u00e9', at + 2)) bytes[at + 1] = 0x41;
    // Past the large-string size: taken apart, its elements read in batches, not parsed whole.
    expect(bytes.length).to.be.greaterThan(LARGE_STRING_BYTES);
    const parsed = parseJsonBytes(bytes);
    expect(parsed).not.to.equal(undefined);
    const expected: unknown = JSON.parse(bytes.toString('utf8'));
    expect(JSON.stringify(expected)).to.include('\ufffdA end');
    expect(JSON.stringify(parsed!.value)).to.equal(JSON.stringify(expected));
  });

  it('refuses a batch where a character past ASCII follows a backslash (escaped it would mean something else): elements are read one by one, to the same value', () => {
    const page = issues(400, (i) => (i === 3 ? 'a backslash then \\é' : `Issue ${i} “quoted”`));
    expect(batchAfterFirst(page).batch).to.equal(undefined);
    const text = JSON.stringify({ issues: page, padding: 'x'.repeat(200_000) });
    const parsed = parseJsonBytes(Buffer.from(text, 'utf8'));
    expect(parsed).not.to.equal(undefined);
    expect(JSON.stringify(parsed!.value)).to.equal(JSON.stringify(JSON.parse(text)));
  });
});
