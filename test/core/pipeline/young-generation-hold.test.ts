import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { BodyBudget } from '../../../core/kernel/body-budget.js';
import { BIG_VALUE_BYTES } from '../../../core/pipeline/big-value.js';
import { holdingYoungGenerationWhenBig } from '../../../core/pipeline/young-generation-hold.js';

const never = new AbortController().signal;

/**
 * The young generation (MiB) of a fresh process after it made 2 million small objects that all survive, as
 * parsing a big body does; with `big`, while a call holding a big body is in flight, else after such a call ended.
 * A process of its own, so that the space starts small whatever the tests before it did (a worker's young
 * generation grows by rules of its own).
 */
function youngGenerationAfterSurvivors(big: 'in flight' | 'ended' | 'none'): string {
  const script = `
    import v8 from 'node:v8';
    import { BodyBudget } from ${JSON.stringify(new URL('../../../core/kernel/body-budget.js', import.meta.url).href)};
    import { holdingYoungGenerationWhenBig } from ${JSON.stringify(new URL('../../../core/pipeline/young-generation-hold.js', import.meta.url).href)};
    const lease = holdingYoungGenerationWhenBig(new BodyBudget(0).lease());
    if (${JSON.stringify(big)} !== 'none') await lease.take(${BIG_VALUE_BYTES + 1}, new AbortController().signal);
    if (${JSON.stringify(big)} === 'ended') lease.release();
    const kept = [];
    for (let i = 0; i < 2e6; i++) kept.push({ i, s: 'y' + i });
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1048576));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

/**
 * The same after `setup` (module code run first, with `hold` the read-back hold and `artifacts` a memory store's
 * artifacts) and then `pause` ms: what a server does between reading a big artifact back and its next calls.
 */
function youngGenerationAfterReadBack(setup: string, pause = 0): number {
  const module = (path: string): string => JSON.stringify(new URL(path, import.meta.url).href);
  const script = `
    import v8 from 'node:v8';
    import { holdYoungGenerationForReadBack as hold } from ${module('../../../core/pipeline/young-generation-hold.js')};
    import { openStore } from ${module('../../../core/store/open-store.js')};
    import { ArtifactFiles } from ${module('../../../plugins/artifacts/artifact-files.js')};
    import { ChunkedArtifactStore } from ${module('../../../plugins/artifacts/chunked-artifact-store.js')};
    const clock = { now: () => Date.now() };
    const files = new ArtifactFiles(clock);
    const artifacts = new ChunkedArtifactStore(await openStore('memory://'), clock, 60_000, files);
    const owner = { via: 'stdio', subject: 'local' };
    ${setup}
    await new Promise((resolve) => setTimeout(resolve, ${pause}));
    const kept = [];
    for (let i = 0; i < 2e6; i++) kept.push({ i, s: 'y' + i });
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1048576));
    await files.close();`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('the young generation while a big artifact is read back', () => {
  it('does not grow while a big artifact is read back, and grows again once the reads have stopped', function () {
    this.timeout(60_000); // fresh processes
    const grown = youngGenerationAfterReadBack('');
    const readBack = (bytes: number): string =>
      `const { artifactId } = await artifacts.save(owner, 'application/json', Buffer.alloc(${bytes}, 120));
       await artifacts.read(owner, artifactId, 0, 1024);`;
    expect(youngGenerationAfterReadBack(readBack(2 * 1024 * 1024)), 'a 2 MiB artifact read').to.be.lessThan(grown);
    expect(youngGenerationAfterReadBack(readBack(64 * 1024)), 'a small artifact read').to.equal(grown);
    expect(youngGenerationAfterReadBack('hold(100);'), 'held').to.be.lessThan(grown);
    expect(youngGenerationAfterReadBack('hold(100);', 400), 'after the hold').to.equal(grown);
  });
});

describe('the young generation while a big body is in flight', () => {
  it('keeps the budget accounting of the lease it wraps', async () => {
    const budget = new BodyBudget(0);
    const lease = holdingYoungGenerationWhenBig(budget.lease());
    await lease.take(BIG_VALUE_BYTES + 1, never);
    expect(lease.held).to.equal(BIG_VALUE_BYTES + 1);
    expect(budget.inUse).to.equal(BIG_VALUE_BYTES + 1);
    lease.release();
    expect(budget.inUse).to.equal(0);
  });

  it('does not grow while a call holds a big body, and grows again once it has ended', function () {
    this.timeout(60_000); // three fresh processes
    const grown = Number(youngGenerationAfterSurvivors('none'));
    expect(Number(youngGenerationAfterSurvivors('in flight'))).to.be.lessThan(grown);
    expect(Number(youngGenerationAfterSurvivors('ended'))).to.equal(grown);
  });
});
