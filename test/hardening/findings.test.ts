import { expect } from 'chai';
import { percentDecoded } from '../../core/http/path-guards.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { tooDeeplyNested } from '../../core/schema/argument-depth.js';
import { nested } from '../support/hostile-strings.js';

/** What the generated tests found, kept as plain regression tests with the exact inputs. */
describe('hardening findings, as regression tests', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', /.*/, (r) => ({ body: { path: r.path } }));
    kernel = await startTestKernel({
      env: { CONFLUENCE_BASE_URL: mock.url, ATLASSIAN_USER_EMAIL: 'bot@example.com', ATLASSIAN_API_TOKEN: 'findings-token-1234' },
    });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  for (const path of ['/wiki/.%2e/rest/api/3/myself?x=%c0', '/wiki/%2e%2e/rest/api/3/myself%c0%ae', '/wiki/.%2e//%c0%ae%c0%ae%2f..%2f.k']) {
    it(`refuses ${JSON.stringify(path)}: a malformed escape does not hide a ".." beside it`, async () => {
      const result = await kernel.call('conf_get', { path });
      expect(textOf(result)).to.contain('Code: invalid_path');
      expect(mock.requests).to.have.length(0);
    });
  }

  it('decodes every escape it can, keeping malformed non-ASCII ones as written', () => {
    expect(percentDecoded('/a/%2e%2e/%c0%ae/%E2%82%AC/%zz/%')).to.equal('/a/../%c0%ae/€/%zz/%');
  });

  it('names the first argument nested deeper than the limit, and never overflows doing so', () => {
    expect(tooDeeplyNested({ path: '/x', body: nested(100, false) })).to.equal('body');
    expect(tooDeeplyNested({ path: '/x', body: nested(99, true) })).to.equal(undefined);
    expect(tooDeeplyNested({ body: nested(200_000, true) })).to.equal('body');
  });

  it('refuses deeply nested arguments as invalid_arguments, naming them, without any request', async () => {
    const result = await kernel.call('conf_post', { path: '/wiki/api/v2/pages', body: nested(5000, false) as Record<string, unknown> });
    expect(textOf(result)).to.equal(
      'Error: Invalid arguments for conf_post:\n- body: is nested more than 100 levels deep; send a flatter value.\nCode: invalid_arguments',
    );
    expect(mock.requests).to.have.length(0);
  });
});
