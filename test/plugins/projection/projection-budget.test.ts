import { expect } from 'chai';
import { boundedSearch, MIN_BUDGET_BYTES, ProjectionBudget, ProjectionTooLarge } from '../../../plugins/projection/bounded-jmespath.js';
import { sharedValue } from '../../support/projection-bombs.js';

function stopped(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ProjectionTooLarge) return error.message;
    throw error;
  }
  return 'not stopped';
}

describe('projection budget (plugins/projection)', () => {
  it('measures a value whose parts are shared once per part, so 2^60 leaves are refused at once', () => {
    const budget = new ProjectionBudget({ a: 1 });
    expect(stopped(() => budget.visited(true, sharedValue(60)))).to.contain('more than 1 MiB of data');
    expect(stopped(() => new ProjectionBudget({}).visited(true, sharedValue(10)))).to.equal('not stopped');
  });

  it('does not measure what a node merely hands on (a field of the body), only what it built', () => {
    const budget = new ProjectionBudget({});
    expect(stopped(() => budget.visited(false, sharedValue(60)))).to.equal('not stopped');
  });

  it('allows twice the body when the body is larger than the minimum budget', () => {
    const body = { items: Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `item-${i}` })) };
    expect(JSON.stringify(body).length).to.be.greaterThan(MIN_BUDGET_BYTES);
    expect(stopped(() => boundedSearch(body, '[items, items]'))).to.equal('not stopped');
    expect(stopped(() => boundedSearch(body, '[items, items, items]'))).to.contain('2 times the response');
  });

  it('measures a string as long as it is: a 512 KiB field doubled 14 times ([@,@]) is refused, not 2^14 copies built', () => {
    const body = { log: 'x'.repeat(512 * 1024) };
    expect(stopped(() => boundedSearch(body, `log${' | [@,@]'.repeat(14)}`, new ProjectionBudget(body, () => 0)))).to.equal(
      'it would produce more than 1 MiB of data (the larger of 1 MiB and 2 times the response)',
    );
    // One doubling stays within twice the body: the budget is not a flat refusal of large strings.
    expect(stopped(() => boundedSearch(body, 'log | [@,@]'))).to.equal('not stopped');
  });

  // About 1 MB: a thousand 1 KiB strings, as a list and as an object's values. Each item's list of 500 is half a
  // megabyte, within the budget; the projection gathers a thousand of them, 500 MB when written out.
  const items = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(1024, '.'));
  const fiveHundred = `[${Array(500).fill('@').join(',')}]`;
  for (const [kind, body, over, within] of [
    ['a list projection', items, `[*].${fiveHundred}`, '[*].[@]'],
    ['a filter projection', items, `[?@].${fiveHundred}`, '[?@].[@]'],
    ['a value projection', Object.fromEntries(items.map((v, i) => [`k${i}`, v])), `*.${fiveHundred}`, '*.[@]'],
  ] as const) {
    it(`measures what ${kind} builds (${over.slice(0, 12)}...), not only the lists it is made of`, () => {
      // A clock that stands still: what is measured here is size, however slowly a loaded machine evaluates.
      expect(stopped(() => boundedSearch(body, over, new ProjectionBudget(body, () => 0)))).to.match(/^it would produce more than 2 MiB of data/);
      expect(stopped(() => boundedSearch(body, within, new ProjectionBudget(body, () => 0)))).to.equal('not stopped');
    });
  }

  it('measures the string a function builds: the JSON text (to_string) of a megabyte of control characters is six', () => {
    // Each U+0001 is one character of the body and six (\u0001) of its JSON text.
    const body = { log: '\u0001'.repeat(1024 * 1024) };
    expect(stopped(() => boundedSearch(body, 'to_string(@)', new ProjectionBudget(body, () => 0)))).to.match(/^it would produce more than 2 MiB of data/);
    expect(stopped(() => boundedSearch(body, 'length(log)', new ProjectionBudget(body, () => 0)))).to.equal('not stopped');
  });

  it('stops an evaluation that runs past its deadline, looking at the clock every 1,024 nodes', () => {
    let now = 0;
    const budget = new ProjectionBudget({}, () => now);
    const body = Array.from({ length: 5000 }, (_, i) => ({ a: i }));
    now = 999;
    expect(stopped(() => boundedSearch(body, '[*].a', budget))).to.equal('not stopped');
    now = 1001;
    expect(stopped(() => boundedSearch(body, '[*].a', budget))).to.equal('the expression ran for more than 1000 ms');
  });

  it('leaves no budget behind: a search after a stopped one runs unbounded by it', () => {
    let clock = 0;
    const tiny = new ProjectionBudget({}, () => (clock += 2000) - 2000);
    expect(
      stopped(() =>
        boundedSearch(
          Array.from({ length: 3000 }, () => 1),
          '[*]',
          tiny,
        ),
      ),
    ).to.contain('ran for more than');
    expect(
      boundedSearch(
        Array.from({ length: 3000 }, () => 1),
        'length([*])',
      ),
    ).to.equal(3000);
  });
});
