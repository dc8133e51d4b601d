import { expect } from 'chai';
import { exposedGc } from '../../support/exposed-gc.js';
import { MAX_TEXT_CHARS, truncateForModel } from '../../../plugins/truncation/truncate-text.js';

const MiB = 1024 * 1024;

// The spill profile's finding: the cut kept by the result was a slice of the whole rendering, and a slice keeps
// the string it was cut from alive, so a 16 MiB value's 44 MiB rendering stayed in memory for the rest of the
// call (structured output, the spill to an artifact) although only its first 40,000 characters were used.
describe('truncated text in memory', () => {
  it('does not keep the whole text alive once it has been cut', () => {
    const gc = exposedGc();
    // Two bytes a character, like a rendering with text outside Latin-1.
    const makeWhole = (): string => `{"summary": "Ünïcödé ✓ ${'lorem ipsum dolor sit amet\n'.repeat((32 * MiB) / 27)}"}`;
    gc();
    const before = process.memoryUsage().heapUsed;
    let whole: string | undefined = makeWhole();
    const cut = truncateForModel(whole, '/tmp/raw-1.txt');
    whole = undefined;
    gc();
    const held = process.memoryUsage().heapUsed - before;
    expect(cut.length)
      .to.be.greaterThan(MAX_TEXT_CHARS - 600)
      .and.lessThan(MAX_TEXT_CHARS + 1000);
    expect(cut).to.include('## Response Truncated');
    expect(whole).to.equal(undefined);
    expect(held, `${(held / MiB).toFixed(1)} MiB still held after the cut`).to.be.lessThan(4 * MiB);
  });
});
