import { expect } from 'chai';
import { exposedGc } from '../../support/exposed-gc.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

/** The call's result, or a failure once `ms` have passed with no answer. */
async function within<T>(ms: number, call: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} was still open after ${ms} ms`)), ms)));
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}

// The review's finding: AbortSignal.timeout is held weakly, so after a large call and a collection a
// 1-byte-per-second upstream kept a call open for minutes past MCP_REQUEST_TIMEOUT_MS.
describe('upstream timeout under garbage collection (--expose-gc)', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_timeoutGcTest0001', MCP_REQUEST_TIMEOUT_MS: '1500', MCP_UPSTREAM_RETRIES: '0' }),
  });

  it('times a drip-fed call out at MCP_REQUEST_TIMEOUT_MS even when a collection runs meanwhile', async () => {
    const gc = exposedGc();
    t.mock.on('GET', '/repos/acme/slow', { body: `{"pad":"${'x'.repeat(600)}"}`, dripMs: 1000, dripChunks: 600 });
    t.mock.on('GET', '/repos/acme/big', { body: { items: Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `item-${i}` })) } });
    const slow = t.kernel.call('github_get', { path: '/repos/acme/slow' });
    while (t.mock.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const collect = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await collect();
    expect(textOf(await t.kernel.call('github_get', { path: '/repos/acme/big', jq: 'length(items)' }))).to.equal('50000');
    await collect();
    const result = await within(8000, slow, 'the drip-fed call');
    expect(textOf(result)).to.equal(
      'Error: GitHub did not answer GET /repos/acme/slow within 1500 ms (MCP_REQUEST_TIMEOUT_MS). Try again, or ask for less.\nCode: upstream_timeout',
    );
  });
});
