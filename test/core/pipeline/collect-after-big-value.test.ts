import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { ThrottledCollector } from '../../../core/pipeline/collect-after-big-value.js';

describe('the collection after a big value', () => {
  it('collects what a finished big call left unreachable, once the current work is done', async () => {
    // Made in a function, so that nothing here keeps it reachable.
    const ref = new WeakRef(bigValue());
    await sleep(1); // a WeakRef keeps its target alive until the job that made it ends
    new ThrottledCollector().request();
    expect(ref.deref(), 'not collected before the call has returned').not.to.equal(undefined);
    await sleep(20);
    expect(ref.deref()).to.equal(undefined);
  });
});

function bigValue(): object {
  return { rows: Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `row ${i}` })) };
}
