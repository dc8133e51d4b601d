import { expect } from 'chai';
import fc from 'fast-check';
import { parseJsonBytes } from '../../../core/http/parse-json-bytes.js';
import { LARGE_STRING_BYTES } from '../../../core/text/large-string.js';

/** Text a vendor writes into a field: any code point, and the characters JSON escapes, often together. */
const fieldText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('“quoted”', 'back\\slash\\', '\\é', 'tab\there', '\u2028', '\ud800 lone', '"}, {"id": 1', '日本語 🚀', 'Crème brûlée'),
);

/** Issue-like elements whose first key is the same, so that a big array of them is read in batches. */
const element = fc.record({
  id: fc.nat(),
  summary: fieldText,
  labels: fc.array(fieldText, { maxLength: 3 }),
  nested: fc.option(fc.record({ note: fieldText })),
});

/**
 * A page past the large-string size (so it is taken apart, not parsed whole): the elements repeated until it
 * is, in a layout given by `indent`.
 */
function page(elements: unknown[], indent: number): Buffer {
  const items: unknown[] = [];
  let bytes = 0;
  for (let i = 0; bytes <= LARGE_STRING_BYTES + 4096; i++) {
    const e = elements[i % elements.length];
    items.push(e);
    bytes += Buffer.byteLength(JSON.stringify(e)) + 1;
  }
  return Buffer.from(JSON.stringify({ total: items.length, issues: items }, null, indent), 'utf8');
}

describe('parseJsonBytes, generated pages: what it gives is what JSON.parse of the decoded text gives', () => {
  it('for big pages of any text, with bytes past ASCII dropped anywhere (broken UTF-8, or bytes outside strings)', () => {
    fc.assert(
      fc.property(
        fc.array(element, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0, 1, 2),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 0x80, max: 0xff }), fc.boolean()), { maxLength: 4 }),
        (elements, indent, corruptions) => {
          const bytes = page(elements, indent);
          for (const [where, byte, afterBackslash] of corruptions) {
            const at = Math.floor(where * bytes.length);
            // Right after a backslash is where an escape would change the meaning of a broken text (`"\é"`).
            const backslash = afterBackslash ? bytes.indexOf(0x5c, at) : -1;
            bytes[backslash !== -1 && backslash + 1 < bytes.length ? backslash + 1 : at] = byte;
          }
          const parsed = parseJsonBytes(bytes);
          let expected: unknown;
          try {
            expected = JSON.parse(bytes.toString('utf8'));
          } catch {
            // A byte past ASCII outside a string: the whole text fails, and so must the parse from the bytes.
            expect(parsed, 'a body JSON.parse refuses').to.equal(undefined);
            return;
          }
          // Undefined is allowed (the caller then decodes and parses the whole text); a value must be the same.
          if (parsed !== undefined) expect(JSON.stringify(parsed.value)).to.equal(JSON.stringify(expected));
          // A page without a byte dropped into it is always handled.
          if (corruptions.length === 0) expect(parsed, 'a well-formed page').not.to.equal(undefined);
        },
      ),
      { numRuns: 60 },
    );
  });
});
