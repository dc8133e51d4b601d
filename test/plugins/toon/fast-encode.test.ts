import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from '@toon-format/toon';
import { expect } from 'chai';
import { applyJq } from '../../../plugins/projection/apply-jq.js';
import { PIECE_CHARS } from '../../../core/result/json-pieces.js';
import { encodeToon, NotPlainJson, toonPieces } from '../../../plugins/toon/fast-encode.js';
import { renderValue } from '../../../plugins/toon/render.js';
import { random } from '../../bench/policy-rules.js';
import { ARRAYS, NUMBERS, QUOTING } from '../../fixtures/atlassian/corpus-kit.js';
import { REPO_ROOT } from '../../support/paths.js';

/** What the library (TOON 2.3.1, the renderer the reference servers use) writes. */
const library = (value: unknown): string => encode(value, { indent: 2 });

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

// Strings that sit on every quoting rule's edge: literals, numbers, structure, whitespace, control characters.
const NASTY = [
  '',
  ' ',
  'a',
  'true',
  'null',
  'False',
  '0',
  '07',
  '-3',
  '1.5',
  '1e9',
  '1E-2',
  '.5',
  '5.',
  'a:b',
  'a,b',
  'a|b',
  '[',
  '}',
  '"q"',
  'back\\',
  'line\nbreak',
  'cr\r',
  'tab\t',
  '\u0001',
  '\u001f',
  '\u007f',
  ' lead',
  'trail ',
  '\u00a0nbsp',
  'bom\ufeff',
  '\u2028',
  '- dash',
  '-',
  '#',
  'x.y',
  'x y',
  '_k',
  '9lives',
  'naïve',
  '日本',
  '😀',
  '\ud83d',
  'a=b',
  "it's",
  '@at',
  'http://x/y?z=1',
];

/** A random plain JSON value, biased towards the shapes TOON treats specially (tables, lists, matrices). */
function randomJson(next: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const primitive = (): unknown =>
    pick([
      () => pick(NASTY),
      () => Math.round((next() - 0.5) * 1e6) / pick([1, 100, 1e9]),
      () => pick([0, -0, 1e21, 2 ** 53 + 2, 1e-7]),
      () => next() < 0.5,
      () => null,
    ])();
  const key = (): string => (next() < 0.7 ? pick(['id', 'name', 'status', 'fields', 'a.b', '1', '__proto__', 'toJSON']) : pick(NASTY));
  if (depth <= 0 || next() < 0.3) return primitive();
  const size = Math.floor(next() * 5);
  switch (Math.floor(next() * 5)) {
    case 0: // a table, or nearly one
      return Array.from({ length: size + 1 }, () =>
        Object.fromEntries(['id', 'name', next() < 0.9 ? 'state' : 'extra'].map((k) => [k, next() < 0.9 ? primitive() : randomJson(next, depth - 1)])),
      );
    case 1: // a matrix, or nearly one
      return Array.from({ length: size }, () => (next() < 0.9 ? Array.from({ length: Math.floor(next() * 3) }, primitive) : randomJson(next, depth - 1)));
    case 2:
      return Array.from({ length: size }, () => randomJson(next, depth - 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < size; i++)
        Object.defineProperty(object, key(), { value: randomJson(next, depth - 1), enumerable: true, writable: true, configurable: true });
      return object;
    }
  }
}

describe('the fast TOON encoder writes exactly what TOON 2.3.1 writes', () => {
  const files = jsonFiles(join(REPO_ROOT, 'test/fixtures'));

  it('for every JSON fixture: GitHub, CircleCI (with its OpenAPI document), Jira, Confluence, Bitbucket', () => {
    expect(files.length).to.be.greaterThan(30);
    for (const file of files) {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
      expect(encodeToon(value), file).to.equal(library(value));
    }
  });

  it('for the quoting, number and array cases of the differential corpus, raw and through jq', () => {
    for (const text of [NUMBERS, QUOTING, ARRAYS]) {
      const value: unknown = JSON.parse(text);
      expect(encodeToon(value)).to.equal(library(value));
      for (const jq of ['*', 'values[?@ != `""`]', '[uniform, mixed, matrix]', 'keys(@)']) {
        const projected = applyJq(value, jq, 'toon');
        expect(encodeToon(projected), jq).to.equal(library(projected));
      }
    }
  });

  it('for 5,000 generated values full of edge cases (seeded, so a failure reproduces)', () => {
    const next = random(2311);
    for (let i = 0; i < 5000; i++) {
      const value = randomJson(next, 4);
      const ours = encodeToon(value);
      if (ours !== library(value)) expect.fail(`value ${i}: ${JSON.stringify(value)}\nours:\n${ours}\nlibrary:\n${library(value)}`);
    }
  });

  it('writes each string as itself when strings share a slot of its table of strings already written', () => {
    // Same length and same characters at both ends, in the middle and at the quarters: only the character at
    // index 7 differs, so every one of them lands in the same slot. Quoted (":"), escaped ('"') and plain.
    const alike = (c: string): string[] => [`id:0123${c}56789abcdefg`, `id"0123${c}56789abcdefg`, `id-0123${c}56789abcdefg`];
    const strings = [...'abcabcxyz'].flatMap(alike);
    // The table is made only once a value has written 128 strings: these come first, so that it is in use.
    const before = Array.from({ length: 200 }, (_, i) => `first-${i}`);
    const value = { before, list: strings, table: strings.map((name) => ({ name })), nested: strings.map((s) => ({ s, again: { s } })) };
    expect(encodeToon(value)).to.equal(library(value));
  });

  it('stays exact when the kept keys are emptied halfway through a value (more distinct keys than it keeps)', () => {
    const value = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [i % 3 ? `key${i}` : `k:${i}`, { [`inner${i}`]: i }]));
    expect(encodeToon(value)).to.equal(library(value));
    expect(encodeToon(value)).to.equal(library(value));
  });

  it('writes long keys and deep lines, which it does not keep across calls, as the library does', () => {
    const long = (i: number): string => `${i % 2 ? 'k:' : 'k"'}${'x'.repeat(80)}${i}`;
    let value: Record<string, unknown> = { [long(0)]: 'leaf', plain: 1 };
    for (let depth = 1; depth < 24; depth++) value = { [long(depth)]: depth, [`level${depth % 3}`]: 'v', nested: value, list: [{ a: 1 }, { a: 2 }] };
    for (let round = 0; round < 2; round++) expect(encodeToon(value)).to.equal(library(value));
  });

  it('hands a long rendering on in pieces of about PIECE_CHARS characters that join to the library text, lines whole', () => {
    const next = random(77);
    const page = {
      total: 400,
      issues: Array.from({ length: 400 }, () => randomJson(next, 3)),
      table: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `n${i}` })),
    };
    const pieces = toonPieces(page);
    const whole = library(page);
    expect(pieces.join('') === whole, 'joined').to.equal(true);
    expect(pieces.length).to.be.greaterThan(whole.length / (2 * PIECE_CHARS));
    const longestLine = Math.max(...whole.split('\n').map((line) => line.length));
    pieces.forEach((piece, i) => {
      // Every piece after the first starts a line; all but the last reach PIECE_CHARS, by less than one line.
      if (i > 0) expect(piece[0], `piece ${i}`).to.equal('\n');
      if (i < pieces.length - 1) expect(piece.length, `piece ${i}`).to.be.within(PIECE_CHARS - 1, PIECE_CHARS + longestLine + 1);
    });
    expect(toonPieces({ a: 1 })).to.deep.equal(['a: 1']);
    expect(toonPieces({})).to.deep.equal(['']);
    expect(toonPieces('text')).to.deep.equal(['text']);
  });

  it('leaves what is not plain JSON to the library, so the rendering does not change', () => {
    class Point {
      constructor(readonly x = 1) {}
    }
    const values: unknown[] = [
      { when: new Date(0) },
      { map: new Map([['a', 1]]) },
      [new Point()],
      { big: 10n },
      { fn: () => 1 },
      { nested: { json: { toJSON: () => 'x' } } },
    ];
    for (const value of values) {
      expect(() => encodeToon(value)).to.throw(NotPlainJson);
      expect(renderValue(value, 'toon')).to.equal(library(value));
    }
  });
});
