import { expect } from 'chai';
import { BodyBudget } from '../../../core/http/body-budget.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { fixtureConfig } from '../../support/fixture-plugin.js';
import { startTestKernel, textOf } from '../../support/test-kernel.js';

const never = new AbortController().signal;
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('in-flight body budget', () => {
  it('lets reads through while they fit, and holds a later call until an earlier one ends', async () => {
    const budget = new BodyBudget(100);
    const first = budget.lease();
    const second = budget.lease();
    await first.take(80, never);
    let secondDone = false;
    const pending = second.take(40, never).then(() => (secondDone = true));
    await settle();
    expect(secondDone).to.equal(false);
    expect(budget.inUse).to.equal(80);
    first.release();
    await pending;
    expect(budget.inUse).to.equal(40);
    second.release();
    expect(budget.inUse).to.equal(0);
  });

  it('never makes the oldest call wait, so one body larger than the whole budget still completes', async () => {
    const budget = new BodyBudget(100);
    const big = budget.lease();
    await big.take(60, never);
    await big.take(500, never);
    expect(budget.inUse).to.equal(560);
    big.release();
    expect(budget.inUse).to.equal(0);
  });

  it('gives up waiting when the call is cancelled, leaving the budget as it was', async () => {
    const budget = new BodyBudget(10);
    const holder = budget.lease();
    await holder.take(10, never);
    const waiter = budget.lease();
    const controller = new AbortController();
    const pending = waiter.take(5, controller.signal).then(
      () => 'taken',
      () => 'aborted',
    );
    controller.abort(new Error('client went away'));
    expect(await pending).to.equal('aborted');
    waiter.release();
    expect(budget.inUse).to.equal(10);
  });

  it('does not bound anything when set to 0', async () => {
    const budget = new BodyBudget(0);
    const a = budget.lease();
    const b = budget.lease();
    await a.take(1e9, never);
    await b.take(1e9, never);
    expect(budget.inUse).to.equal(2e9);
  });

  it('serves a burst of large responses whole while holding at most the budget plus one call', async () => {
    const mock = await MockUpstream.start();
    const budget = 300_000;
    const kernel = await startTestKernel({
      configFile: fixtureConfig(),
      env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'budget-token', MCP_MAX_INFLIGHT_BODY_BYTES: String(budget) },
    });
    try {
      const body = (i: number): { items: string[] } => ({ items: Array.from({ length: 2000 }, (_, k) => `call-${i}-item-${k}-${'x'.repeat(80)}`) });
      mock.on('GET', '/big/:i', (request) => ({ body: body(Number(request.params.i)), dripMs: 5, dripChunks: 20 }));
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, kernel.kernel.bodyBytesInFlight)), 1);
      const results = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((i) => kernel.call('fixture_get', { path: `/big/${i}`, outputFormat: 'json', jq: 'items[-1]' })),
      );
      clearInterval(sampler);
      results.forEach((result, i) => expect(textOf(result)).to.equal(JSON.stringify(`call-${i}-item-1999-${'x'.repeat(80)}`)));
      const oneBody = JSON.stringify(body(0)).length;
      expect(oneBody).to.be.greaterThan(budget / 2);
      expect(peak)
        .to.be.greaterThan(0)
        .and.at.most(budget + oneBody);
      expect(kernel.kernel.bodyBytesInFlight).to.equal(0);
    } finally {
      await kernel.close();
      await mock.close();
    }
  });
});
