import { expect } from 'chai';
import { isToolError } from '../../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../../core/http/upstream-client.js';
import { BodyBudget } from '../../../core/http/body-budget.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ciClient } from '../../support/ci-client.js';
import { plainToolContext } from '../../support/tool-context.js';

const TIMEOUT_MS = 1000;

function client(baseUrl: string): UpstreamClient {
  return ciClient(baseUrl, { auth: () => ({ authorization: 'Bearer budget-wait-token' }), timeoutMs: TIMEOUT_MS });
}

const PAGE = { items: Array.from({ length: 600 }, (_, i) => ({ id: i, name: `pipeline ${i}`, state: 'created' })) };

// The benchmark's finding: with 8 clients spilling 16 MiB values, the in-flight body budget (128 MiB) was spent,
// later reads waited for earlier calls to end, and that wait ran down MCP_REQUEST_TIMEOUT_MS: the calls failed as
// upstream timeouts although the vendor had answered at once. The timeout measures the vendor, not our queue.
describe('upstream timeout and the in-flight body budget', () => {
  let vendor: MockUpstream;

  before(async () => {
    vendor = await MockUpstream.start();
  });
  after(async () => {
    await vendor.close();
  });
  beforeEach(() => vendor.reset());

  it('does not count the time a read waits for the body budget against MCP_REQUEST_TIMEOUT_MS', async () => {
    vendor.on('GET', '/api/pipelines', { body: PAGE });
    const budget = new BodyBudget(1024);
    const earlier = budget.lease();
    await earlier.take(1024, new AbortController().signal); // an older call holds the whole budget
    const later = budget.lease();
    const call = client(vendor.url).send(plainToolContext({ bodyLease: later }), { method: 'GET', path: '/api/pipelines' });
    // The older call ends well after the later one's timeout would have run out while it waited.
    setTimeout(() => earlier.release(), 3 * TIMEOUT_MS);
    const response = await call;
    expect(response.body).to.deep.equal(PAGE);
    later.release();
  });

  it('still times out a vendor that stops sending, budget or not', async () => {
    vendor.on('GET', '/api/pipelines', { body: PAGE, dripMs: 1000, dripChunks: 20 });
    const budget = new BodyBudget(64 * 1024 * 1024);
    const error = await client(vendor.url)
      .send(plainToolContext({ bodyLease: budget.lease() }), { method: 'GET', path: '/api/pipelines' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isToolError(error) && error.code).to.equal('upstream_timeout');
  });
});
