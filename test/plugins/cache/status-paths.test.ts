import { expect } from 'chai';
import { circleciFixture, pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const LIST = `/project/${SLUG}/pipeline`;

// A pipeline, workflow or job changes by the second, and so do the lists an agent polls after a push to find
// the new pipeline: however their responses are labelled, they are fetched anew.
describe('HTTP cache: CircleCI status paths and discovery lists are never cached, other lists are', () => {
  const t = useVendorKernel({
    plugins: ['circleci'],
    env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'circle-statusTestToken01' }),
    clock: { now: () => Date.UTC(2026, 9, 7, 16, 20, 11, 402) },
  });
  let n = 0;
  const read = async (path: string, args: Record<string, unknown>): Promise<{ cache: { hit: boolean } }> =>
    JSON.parse(textOf(await t.kernel.call('circleci_get', { path, outputFormat: 'json', jq: 'items[*].number', ...args }))) as { cache: { hit: boolean } };

  const statusPaths = [
    '/pipeline/5034460f-c7c4-4c43-9457-de07e2029e7b',
    '/pipeline/5034460f-c7c4-4c43-9457-de07e2029e7b/workflow',
    '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3',
    '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3/job',
    `/project/${SLUG}/job/1262`,
    '/project/gh%2FCircleCI-Public%2Fapi-preview-docs/job/1262',
    `/project/${SLUG}/pipeline/25`,
    `/project/${SLUG}/1262/artifacts`,
    '/api/v2/%77orkflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3',
    '/api/v2/%77orkflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3//%6aob/',
    LIST,
    `/project/${SLUG}/pipeline/mine`,
    '/project/gh%2FCircleCI-Public%2Fapi-preview-docs/pipeline',
    '/api/v2/project/gh/CircleCI-Public/api-preview-docs/%70ipeline/mine',
    '/pipeline?org-slug=gh/CircleCI-Public',
  ];
  for (const path of statusPaths) {
    it(`never caches the status path ${path}`, async () => {
      t.mock.on('GET', '/api/v2/*', { headers: { 'cache-control': 'max-age=600' }, body: circleciFixture('workflow.json') });
      const first = await t.kernel.call('circleci_get', { path, jq: 'status', outputFormat: 'json' });
      const second = await t.kernel.call('circleci_get', { path, jq: 'status', outputFormat: 'json' });
      expect(JSON.parse(textOf(second)).cache).to.deep.equal({ hit: false, ageMs: 0, fetchedAt: '2026-10-07T16:20:11.402Z' });
      expect(first.isError).to.equal(undefined);
      expect(t.mock.requests).to.have.length(2);
    });
  }

  for (const path of ['/insights/gh/CircleCI-Public/api-preview-docs/workflows', '/context?owner-slug=gh/CircleCI-Public', `/project/${SLUG}/envvar`]) {
    it(`caches the list ${path}`, async () => {
      t.mock.on('GET', '/api/v2/*', (req) => tokenPagedReply(req, pipelines(1)));
      await read(path, { queryParams: { n: String(++n) } });
      expect((await read(path, { queryParams: { n: String(n) } })).cache.hit).to.equal(true);
      expect(t.mock.requests).to.have.length(1);
    });
  }
});
