import { expect } from 'chai';
import { nestsDeeperThan, tooDeeplyNested } from '../../../core/schema/argument-depth.js';

/** `levels` objects or arrays nested in one another under `leaf`, the outermost at level 0. */
function nested(levels: number, kind: 'object' | 'array' | 'mixed', leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let level = levels - 1; level >= 0; level--) {
    const asArray = kind === 'array' || (kind === 'mixed' && level % 2 === 1);
    value = asArray ? [1, null, 'a', value] : { id: 1, none: null, name: 'a', child: value };
  }
  return value;
}

describe('how deeply a value nests (response bodies and call arguments)', () => {
  for (const kind of ['object', 'array', 'mixed'] as const) {
    it(`finds a ${kind} one level past the limit, and nothing at the limit`, () => {
      // Levels 0..maxDepth are allowed: maxDepth + 1 containers sit at most at level maxDepth.
      expect(nestsDeeperThan(nested(513, kind), 512)).to.equal(false);
      expect(nestsDeeperThan(nested(514, kind), 512)).to.equal(true);
      // Primitives never count as a level.
      expect(nestsDeeperThan(nested(513, kind, { leaf: 'x' }), 512)).to.equal(true);
    });
  }

  it('sees a deep member wherever it is among shallow ones, not only the last', () => {
    const members = Array.from({ length: 50 }, (_, i) => (i === 7 ? nested(6, 'object') : { id: i }));
    expect(nestsDeeperThan({ members }, 5)).to.equal(true);
    expect(nestsDeeperThan({ members }, 7)).to.equal(false);
  });

  it('counts own members only and treats a primitive or null as flat', () => {
    const inherited = Object.create({ deep: nested(10, 'object') }) as object;
    expect(nestsDeeperThan(inherited, 3)).to.equal(false);
    for (const flat of [null, undefined, 0, 'text', true]) expect(nestsDeeperThan(flat, 0)).to.equal(false);
  });

  it('names the top-level argument that nests too deeply', () => {
    // The arguments object is level 0, so `body`'s outermost container is level 1.
    expect(tooDeeplyNested({ ok: { a: 1 }, body: nested(101, 'mixed') })).to.equal('body');
    expect(tooDeeplyNested({ ok: { a: 1 }, body: nested(100, 'mixed') })).to.equal(undefined);
  });
});
