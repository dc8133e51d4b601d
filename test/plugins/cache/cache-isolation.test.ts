import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

// A list that stays cacheable (a project's schedules): pipeline lists are status paths.
const LIST = '/project/gh/CircleCI-Public/api-preview-docs/schedule';
const config = { content: JSON.stringify({ plugins: ['circleci'] }) };

interface ReadResult {
  data: unknown;
  cache: { hit: boolean; ageMs: number; fetchedAt: string };
}

describe('HTTP cache shared by two credentials (two kernels, one SQLite store)', () => {
  let mock: MockUpstream;
  let alpha: TestKernel;
  let beta: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    const store = `sqlite://${join(mkdtempSync(join(tmpdir(), 'mcp-devtools-cache-')), 'shared.db')}`;
    alpha = await startTestKernel({ configFile: config, env: { CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: 'circle-alphaToken01234', MCP_STORE_URL: store } });
    beta = await startTestKernel({ configFile: config, env: { CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: 'circle-betaToken567890', MCP_STORE_URL: store } });
  });
  after(async () => {
    await alpha.close();
    await beta.close();
    await mock.close();
  });

  it('never serves one credential an entry fetched with the other', async () => {
    // Each credential sees its own projects: the answer depends on who asks.
    mock.on('GET', '/api/v2/me/collaborations', (req) => ({
      body: [{ name: req.headers['circle-token'] === 'circle-alphaToken01234' ? 'alpha-org' : 'beta-org', vcs_type: 'github', slug: 'gh/x' }],
    }));
    const names = async (kernel: TestKernel): Promise<[string, boolean]> => {
      const parsed = JSON.parse(textOf(await kernel.call('circleci_get', { path: '/me/collaborations', jq: '[0].name', outputFormat: 'json' }))) as ReadResult;
      return [parsed.data as string, parsed.cache.hit];
    };
    expect(await names(alpha)).to.deep.equal(['alpha-org', false]);
    expect(await names(beta)).to.deep.equal(['beta-org', false]);
    expect(await names(alpha)).to.deep.equal(['alpha-org', true]);
    expect(await names(beta)).to.deep.equal(['beta-org', true]);
    expect(mock.requests.map((r) => r.headers['circle-token'])).to.deep.equal(['circle-alphaToken01234', 'circle-betaToken567890']);
  });
});

describe('HTTP cache turned off', () => {
  let mock: MockUpstream;
  const kernels: TestKernel[] = [];

  before(async () => {
    mock = await MockUpstream.start();
    const env = { CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: 'circle-offToken0123456' };
    kernels.push(await startTestKernel({ configFile: config, env: { ...env, HTTP_CACHE_ENABLED: 'false' } }));
    kernels.push(await startTestKernel({ configFile: { content: JSON.stringify({ plugins: ['circleci'], disable: ['cache'] }) }, env }));
  });
  after(async () => {
    for (const kernel of kernels) await kernel.close();
    await mock.close();
  });

  for (const [i, how] of [
    [0, 'HTTP_CACHE_ENABLED=false'],
    [1, 'disable: ["cache"] in the config file'],
  ] as const) {
    it(`by ${how}: every read goes upstream and says it was fetched`, async () => {
      mock.reset();
      mock.on('GET', `/api/v2${LIST}`, (req) => tokenPagedReply(req, pipelines(1)));
      for (let call = 0; call < 2; call++) {
        const parsed = JSON.parse(textOf(await kernels[i]!.call('circleci_get', { path: LIST, outputFormat: 'json', jq: 'items[*].number' }))) as ReadResult;
        expect(parsed.cache.hit).to.equal(false);
        expect(parsed.cache.ageMs).to.equal(0);
      }
      expect(mock.requests).to.have.length(2);
    });
  }
});
