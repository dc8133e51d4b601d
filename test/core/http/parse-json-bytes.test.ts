import { expect } from 'chai';
import { BATCH_BYTES } from '../../../core/http/json-array-batches.js';
import { parseJsonBytes } from '../../../core/http/parse-json-bytes.js';
import { LARGE_STRING_BYTES } from '../../../core/text/large-string.js';

/** The value JSON.parse gives, compared by its JSON text (key order included) and its own keys' prototypes. */
function expectSameAsJsonParse(text: string, from = 0): void {
  const parsed = parseJsonBytes(Buffer.from(text, 'utf8'), from);
  expect(parsed, 'handled').not.to.equal(undefined);
  const expected: unknown = JSON.parse(text.slice(from === 3 ? 1 : 0));
  expect(JSON.stringify(parsed!.value) === JSON.stringify(expected), 'same value').to.equal(true);
}

/** An issue-like member with everything a scanner can trip on inside its strings. */
function member(i: number): Record<string, unknown> {
  return {
    key: `PLAT-${i}`,
    summary: `Ünïcödé 🚀 ${i} with "quotes", [brackets], {braces}, commas, colons: and a \\ backslash\\`,
    trailing: 'ends with a backslash \\',
    escapes: '\u0000\n\t\r\u2028 \ud83d\ude80',
    numbers: [0, -0.5, 1e21, 2 ** 60, -1.5e-7],
    flags: [true, false, null],
    nested: { a: [{ b: { c: [[], {}, [[[{}]]]] } }], empty: '' },
  };
}

describe('parseJsonBytes: a big body parsed a member at a time', () => {
  it('gives what JSON.parse gives, for large arrays and objects in any whitespace', () => {
    const items = Array.from({ length: 3000 }, (_, i) => member(i));
    expectSameAsJsonParse(JSON.stringify({ startAt: 0, issues: items, total: 3000 }));
    expectSameAsJsonParse(JSON.stringify(items, null, 2));
    expectSameAsJsonParse(` \r\n\t${JSON.stringify({ deep: { deeper: { list: items } } }, null, '\t')} \n`);
    expectSameAsJsonParse(JSON.stringify({ log: 'x'.repeat(200_000), tail: [1, 2, 3] }));
    // Numbers as the vendor wrote them (more digits than a double holds, exponents), parsed by JSON.parse alone.
    expectSameAsJsonParse(`[${Array.from({ length: 5000 }, (_, i) => `{"n": 12345678901234567890${i}, "e": 1E+2, "f": -0.000${i}e-3}`).join(',')}]`);
  });

  it('gives what JSON.parse gives for members of every size around the one it parses whole (32 KiB), nested', () => {
    // Objects of 32,760 to 32,780 bytes (a member is parsed whole up to 32 KiB, taken apart above), in an array,
    // as an object's members, and inside a member that is itself too big.
    const sized = (bytes: number): Record<string, unknown> => ({ pad: 'p'.repeat(bytes - '{"pad":""}'.length) });
    const members = Array.from({ length: 21 }, (_, i) => sized(32_760 + i));
    expect(JSON.stringify(members[8])).to.have.length(32_768);
    expectSameAsJsonParse(JSON.stringify(members));
    expectSameAsJsonParse(JSON.stringify(Object.fromEntries(members.map((m, i) => [`k${i}`, m]))));
    expectSameAsJsonParse(JSON.stringify({ outer: [{ inner: members.slice(5, 12) }, [members[8], [members[9]]]] }, null, 1));
  });

  it('gives what JSON.parse gives where elements are read in batches: seams in nested arrays, big elements, any layout', () => {
    // The first key of every element is "id"; nested arrays of objects starting with "id" too put the seam
    // (`},{"id":`) inside elements, where a batch must not end.
    const element = (i: number): Record<string, unknown> => ({
      id: i,
      children: i % 7 === 0 ? [{ id: i * 10 }, { id: i * 10 + 1, note: '},{"id":' }] : [],
      text: i % 50 === 0 ? 'y'.repeat(BATCH_BYTES + 100) : `item ${i} ]}[{`,
    });
    const elements = Array.from({ length: 4000 }, (_, i) => element(i));
    expectSameAsJsonParse(JSON.stringify({ total: elements.length, items: elements }));
    expectSameAsJsonParse(JSON.stringify(elements, null, 2));
    expectSameAsJsonParse(JSON.stringify(elements.map((e, i) => (i === 2 ? { other: 1, ...e } : e))));
    // Elements each bigger than a batch, and a seam that only ever falls inside one.
    const big = Array.from({ length: 6 }, (_, i) => ({ id: i, rows: Array.from({ length: 3000 }, (_, j) => ({ id: j })) }));
    expectSameAsJsonParse(JSON.stringify(big));
  });

  it('counts the brackets of elements read in batches: a deep one is seen wherever it is', () => {
    // Past the large-string size, so the elements are read in batches (a smaller ASCII page is parsed whole).
    const elements = Array.from({ length: 6000 }, (_, i) => ({ id: i, note: `element ${i}` }));
    const page = Buffer.from(JSON.stringify({ items: elements }));
    expect(page.length).to.be.greaterThan(LARGE_STRING_BYTES);
    const flat = parseJsonBytes(page)!;
    expect(flat.nesting).to.equal(2);
    const deep = `{"items": ${JSON.stringify(elements).replace('{"id":2000,', `{"id":2000,"deep":${'['.repeat(600)}${']'.repeat(600)},`)}}`;
    const parsed = parseJsonBytes(Buffer.from(deep))!;
    expect(JSON.stringify(parsed.value)).to.equal(JSON.stringify(JSON.parse(deep)));
    expect(parsed.nesting).to.equal(602);
    const deeper = deep.replace(`${'['.repeat(600)}${']'.repeat(600)}`, `${'['.repeat(5000)}${']'.repeat(5000)}`);
    expect(parseJsonBytes(Buffer.from(deeper))!.nesting).to.be.greaterThan(512);
  });

  it('keeps "__proto__" a key and a repeated key where JSON.parse keeps it', () => {
    const filler = JSON.stringify(Array.from({ length: 2000 }, (_, i) => member(i)));
    const text = `{"__proto__": {"polluted": true}, "a": 1, "big": ${filler}, "a": 2, "b": {"__proto__": ${filler}}}`;
    const parsed = parseJsonBytes(Buffer.from(text))!.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).to.equal(Object.prototype);
    expect(Object.keys(parsed)).to.deep.equal(['__proto__', 'a', 'big', 'b']);
    expect(parsed.a).to.equal(2);
    expect(({} as { polluted?: boolean }).polluted).to.equal(undefined);
    expectSameAsJsonParse(text);
  });

  it('starts after a byte order mark when told', () => {
    expectSameAsJsonParse(`\ufeff${JSON.stringify(Array.from({ length: 2000 }, (_, i) => member(i)))}`, 3);
  });

  it('leaves anything else to the whole text: not an object or array, not JSON, trailing bytes', () => {
    const big = JSON.stringify(Array.from({ length: 2000 }, (_, i) => member(i)));
    expect(parseJsonBytes(Buffer.from(`"${'x'.repeat(100_000)}"`)), 'a string').to.equal(undefined);
    for (const text of [
      big.slice(0, -1),
      `${big} x`,
      `${big}]`,
      big.replace('"PLAT-1500"', 'PLAT-1500'),
      big.replace('},{', '},,{'),
      big.replace('},{', '}{'),
      `{"a": ${big},}`,
      `[${big}, ]`,
      `{"a" ${big}}`,
      '  ',
    ]) {
      expect(parseJsonBytes(Buffer.from(text)), text.slice(0, 40)).to.equal(undefined);
      expect(() => JSON.parse(text)).to.throw(SyntaxError);
    }
  });
});
