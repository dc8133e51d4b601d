import fc from 'fast-check';

/**
 * Strings an attacker or a confused model would send: odd unicode (bidi overrides, zero-width joiners, lone
 * surrogates, astral characters), control characters and CRLF, and now and then a huge one.
 */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 40, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 30, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 20, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 20, arbitrary: fc.array(fc.constantFrom(...ODD_UNITS), { minLength: 1, maxLength: 12 }).map((parts) => parts.join('')) },
    // About one string in a hundred: enough to meet every tool with them, few enough to keep CI quick.
    { weight: 1, arbitrary: hugeString() },
  );
}

/** 64 KiB to 1 MiB of one repeated piece (a pasted log, a runaway loop in the caller). */
export function hugeString(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('a', 'é', '😀', '/..', '%2e', '\r\n', '"\\'), fc.integer({ min: 64 * 1024, max: 1024 * 1024 }))
    .map(([piece, chars]) => piece.repeat(Math.ceil(chars / piece.length)));
}

const ODD_UNITS = [
  '\u202e', // right-to-left override
  '\u200b', // zero width space
  '\u200d', // zero width joiner
  '\ufeff', // byte order mark
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u00ad',
  '\uff0e', // fullwidth full stop
  '\u2024', // one dot leader
  '\u3002', // ideographic full stop
  '\ufe52', // small full stop
  '\u0130', // dotted capital I (changes length when lower-cased)
  'ß',
  '𝒳',
  '👩‍👩‍👧',
  'a',
  '/',
  '%',
  '\\',
  '"',
  "'",
  '{{',
  '${x}',
  '__proto__',
  // What servers read differently from a path check: path parameters, overlong and stray escapes.
  ';',
  '..;',
  ';jsessionid=1',
  '%3b',
  '%c0%ae',
  '%e0%80%ae',
  '%ff',
  // Doubling projections, wherever a string may end up in a jq argument.
  '[@,@] | [@,@] | [@,@]',
];

/** An object nested `depth` levels deep, `{a: {a: ... {}}}`, or the same with arrays. */
export function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = asArray ? [] : {};
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Deep objects and arrays, from a few levels to far deeper than any real API body. */
export function deepValue(): fc.Arbitrary<unknown> {
  return fc.tuple(fc.constantFrom(8, 64, 1000, 5000, 20000), fc.boolean()).map(([depth, asArray]) => nested(depth, asArray));
}
