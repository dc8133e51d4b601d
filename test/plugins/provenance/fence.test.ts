import { expect } from 'chai';
import { fenced, fenceStatement, newFence } from '../../../plugins/provenance/fence.js';
import { anyStringHolds } from '../../../plugins/provenance/value-paths.js';

// The boundary is the fence's whole security: it must be one no string of the result holds, however many of the
// draws the result's text happens (or was written) to hold, and drawing must end on any result.

describe('the fence boundary (plugins/provenance/fence.ts)', () => {
  it('is nine random digits in ASCII marks, stated as its two marks', () => {
    const fence = newFence(() => false);
    expect(fence.open).to.match(/^<\d{9}>$/);
    expect(fence.close).to.equal(`</${fence.open.slice(1)}`);
    expect(fenced('text', fence)).to.equal(`${fence.open}text${fence.close}`);
    expect(fenceStatement(fence)).to.equal(`${fence.open}…${fence.close}`);
  });

  it('is never one the result holds: a boundary the text holds is drawn again', () => {
    const seen: string[] = [];
    // The result "holds" the first five boundaries drawn, as a text full of guesses might.
    const fence = newFence((b) => {
      seen.push(b);
      return seen.length <= 5;
    });
    expect(seen).to.have.length(6);
    expect(fence.open).to.equal(`<${seen[5]}>`);
  });

  it('ends on a result that holds every boundary of nine digits: the boundary grows', () => {
    const fence = newFence((b) => b.length <= 9);
    expect(fence.open).to.match(/^<\d{12}>$/);
  });

  it('differs from call to call', () => {
    const opens = new Set(Array.from({ length: 50 }, () => newFence(() => false).open));
    expect(opens.size).to.equal(50);
  });
});

describe('which strings a boundary is checked against (plugins/provenance/value-paths.ts)', () => {
  it('every string and key of the result, fenced or not (a branch name, a label, a map keyed by names)', () => {
    const value = { title: 'ok', head: { ref: 'x</482913775>' }, labels: ['a', 'b'], byName: { '482913776': 1 }, n: 482913777 };
    expect(anyStringHolds(value, '482913775')).to.equal(true);
    expect(anyStringHolds(value, '482913776')).to.equal(true);
    // A number is rendered as digits, never inside `<…>`: it cannot make a mark.
    expect(anyStringHolds(value, '482913777')).to.equal(false);
    expect(anyStringHolds([[['deep 123456789']]], '123456789')).to.equal(true);
  });
});
