import { expect } from 'chai';
import { jsonPieces, PIECE_CHARS } from '../../../core/result/json-pieces.js';

/** A deterministic value of about `members` members at each of a few levels, full of what JSON escapes. */
function generated(seed: number, members: number, depth = 3): unknown {
  let state = seed;
  const next = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const strings = ['plain', 'quo"te', 'back\\slash', 'new\nline', '\u0000\u001f', 'Ünïcödé ✓', '🚀 pair', 'lone \ud800', '\udc00 lone', '', '\u2028'];
  const leaf = (): unknown => {
    const r = next();
    if (r < 0.3) return strings[Math.floor(next() * strings.length)]! + String(Math.floor(next() * 1000));
    if (r < 0.45) return [0, -0, 1e21, 1.5e-7, -42.125, 2 ** 53 + 2, NaN, Infinity][Math.floor(next() * 8)];
    if (r < 0.55) return [null, true, false][Math.floor(next() * 3)];
    if (r < 0.6) return [];
    if (r < 0.65) return {};
    if (r < 0.7) return undefined;
    return 'x'.repeat(Math.floor(next() * 300));
  };
  const build = (level: number): unknown => {
    if (level === 0) return leaf();
    const count = Math.max(1, Math.floor(members * (0.5 + next())));
    if (next() < 0.5) return Array.from({ length: count }, () => build(level - 1));
    const object: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) object[`${strings[i % strings.length]}-${i}`] = build(level - 1);
    return object;
  };
  return build(depth);
}

function joined(value: unknown, indent: 0 | 2): { text: string; pieces: string[] } {
  const pieces = [...jsonPieces(value, indent)];
  return { text: pieces.join(''), pieces };
}

describe('jsonPieces: JSON.stringify in pieces', () => {
  for (const indent of [0, 2] as const) {
    it(`writes exactly JSON.stringify(value, null, ${indent}) for generated values, large and small`, () => {
      for (let seed = 1; seed <= 6; seed++) {
        for (const members of [1, 4, 12, 40]) {
          const value = generated(seed, members);
          expect(joined(value, indent).text === JSON.stringify(value, null, indent), `seed ${seed}, ${members} members`).to.equal(true);
        }
      }
    });

    it(`keeps pieces near PIECE_CHARS on a large value (indent ${indent}), never split inside a surrogate pair`, () => {
      const value = {
        meta: { total: 3 },
        issues: Array.from({ length: 4000 }, (_, i) => ({ key: `PLAT-${i}`, summary: `🚀 Ünïcödé ${i}`, tags: ['a', 'b'], n: i })),
      };
      const { text, pieces } = joined(value, indent);
      expect(text === JSON.stringify(value, null, indent)).to.equal(true);
      expect(pieces.length).to.be.greaterThan(10);
      for (const piece of pieces) {
        expect(piece.length).to.be.lessThan(2 * PIECE_CHARS);
        const last = piece.charCodeAt(piece.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff, 'a piece ends with a high surrogate').to.equal(false);
      }
    });
  }

  it('leaves toJSON, class instances, Maps, functions and symbols to JSON.stringify inside a large container', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const big = Array.from({ length: 3000 }, (_, i) => ({
      when: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
      at: new Point(i, -i),
      map: new Map([[i, i]]),
      fn: () => i,
      sym: Symbol('s'),
      nothing: undefined,
      custom: { toJSON: () => ({ replaced: i }) },
      list: [undefined, () => 1, Symbol('t'), i],
    }));
    const value = { big, deep: { more: big.slice(0, 600) } };
    for (const indent of [0, 2] as const) expect(joined(value, indent).text === JSON.stringify(value, null, indent)).to.equal(true);
  });

  it('writes runs of small array elements of every kind, at every depth, exactly as JSON.stringify does', () => {
    // Elements of a big array are written a piece's worth at a time (one JSON.stringify of a slice); the slice's
    // text must lose its brackets and keep each element's indentation, and what the slice would change (a toJSON
    // called with its index) must not be written in a run.
    const kinds = (i: number): unknown[] => [
      i,
      -0,
      `s"${i}\n`,
      null,
      true,
      undefined,
      () => i,
      Symbol('x'),
      [],
      {},
      [i, [i, { i }]],
      { a: [undefined, i] },
      new Date(Date.UTC(2026, 0, 1 + (i % 28))),
    ];
    const elements = Array.from({ length: 2000 }, (_, i) => kinds(i)[i % 13]);
    const value = {
      top: elements,
      nested: [[elements, { deeper: [[elements]] }]],
      mixed: [...elements.slice(0, 500), 'x'.repeat(3 * PIECE_CHARS), ...elements.slice(500, 900)],
    };
    for (const indent of [0, 2] as const) {
      const { text, pieces } = joined(value, indent);
      expect(text === JSON.stringify(value, null, indent), `indent ${indent}`).to.equal(true);
      expect(pieces.length).to.be.greaterThan(3);
    }
  });

  it('writes a root JSON.stringify turns into undefined as nothing, and a primitive root whole', () => {
    expect([...jsonPieces(undefined)]).to.deep.equal([]);
    expect([...jsonPieces(() => 1)]).to.deep.equal([]);
    expect([...jsonPieces('a "b"', 2)]).to.deep.equal(['"a \\"b\\""']);
    expect([...jsonPieces(-0)]).to.deep.equal(['0']);
  });

  it('refuses a circular structure as JSON.stringify does', () => {
    const loop: Record<string, unknown>[] = Array.from({ length: 3000 }, (_, i) => ({ i, text: 'x'.repeat(20) }));
    const root = { loop };
    (loop as unknown[]).push(root);
    expect(() => [...jsonPieces(root)]).to.throw(TypeError, /circular/);
  });
});
