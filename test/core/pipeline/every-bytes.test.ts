import { expect } from 'chai';
import { EveryBytes } from '../../../core/pipeline/every-bytes.js';

describe('EveryBytes: the pace of the big-value collections', () => {
  it('runs its action once each time the bytes counted since the last run reach the step, whatever the chunk sizes', () => {
    let runs = 0;
    const every = new EveryBytes(4096, () => runs++);
    every.count(4095);
    expect(runs).to.equal(0);
    every.count(1);
    expect(runs).to.equal(1);
    // A chunk bigger than the step runs it once, and counting starts again from nothing after it.
    every.count(10_000);
    expect(runs).to.equal(2);
    for (let i = 0; i < 64; i++) every.count(64);
    expect(runs).to.equal(3);
  });

  it('never runs it for fewer bytes than the step in all', () => {
    let runs = 0;
    const every = new EveryBytes(1024 * 1024, () => runs++);
    for (let i = 0; i < 15; i++) every.count(64 * 1024);
    expect(runs).to.equal(0);
  });
});
