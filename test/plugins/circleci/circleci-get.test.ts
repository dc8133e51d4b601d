import { expect } from 'chai';
import { circleciFixture, pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { describeUpstreamErrors } from '../../support/upstream-error-suite.js';

const TOKEN = 'circle-getTestToken0123456789';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const config = JSON.stringify({ plugins: ['circleci'] });
const FIXED_NOW = Date.UTC(2026, 9, 7, 16, 20, 11, 402);

describe('circleci_get (in-process, against a CircleCI-shaped mock)', () => {
  const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN }), clock: { now: () => FIXED_NOW } });

  const get = async (args: Record<string, unknown>): Promise<{ data: unknown; cache: { hit: boolean; ageMs: number; fetchedAt: string } }> => {
    const result = await t.kernel.call('circleci_get', { outputFormat: 'json', fresh: true, ...args });
    expect(result.isError, textOf(result)).to.equal(undefined);
    return JSON.parse(textOf(result)) as { data: unknown; cache: { hit: boolean; ageMs: number; fetchedAt: string } };
  };

  it('GETs the path under /api/v2 with Circle-Token and renders {data, cache}', async () => {
    t.mock.on('GET', '/api/v2/workflow/:id', { body: circleciFixture('workflow.json') });
    const result = await get({ path: '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3' });
    expect(result).to.deep.equal({ data: circleciFixture('workflow.json'), cache: { hit: false, ageMs: 0, fetchedAt: '2026-10-07T16:20:11.402Z' } });
    const sent = t.mock.requests[0]!;
    expect(sent.path).to.equal('/api/v2/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3');
    expect(sent.headers['circle-token']).to.equal(TOKEN);
    expect(sent.headers.authorization).to.equal(undefined);
    expect(sent.headers.accept).to.equal('application/json');
  });

  it('takes a path that already starts with /api/v2 as is', async () => {
    t.mock.on('GET', '/api/v2/me', { body: { id: 'c9c8d2ac-4a4b-4a1f-8b5d-4f3b8c6ac2a5', login: 'octocat', name: 'The Octocat' } });
    expect((await get({ path: '/api/v2/me', jq: 'login' })).data).to.equal('octocat');
    expect(t.mock.requests.map((r) => r.path)).to.deep.equal(['/api/v2/me']);
  });

  it('keeps every path under /api/v2: another API version is not reachable', async () => {
    await t.kernel.call('circleci_get', { path: '/api/v1.1/me' });
    expect(t.mock.requests.map((r) => r.path)).to.deep.equal(['/api/v2/api/v1.1/me']);
  });

  it('renders TOON by default, with the cache beside the data', async () => {
    t.mock.on('GET', `/api/v2/project/${SLUG}/pipeline`, (req) => tokenPagedReply(req, pipelines(2)));
    const text = textOf(await t.kernel.call('circleci_get', { path: `/project/${SLUG}/pipeline`, jq: 'items[*].number', fresh: true }));
    expect(text).to.equal('cache:\n  hit: false\n  ageMs: 0\n  fetchedAt: "2026-10-07T16:20:11.402Z"\ndata[2]: 27,26');
  });

  it('continues a list with next_page_token passed back as page-token, until it is null', async () => {
    const all = pipelines(45);
    t.mock.on('GET', `/api/v2/project/${SLUG}/pipeline`, (req) => tokenPagedReply(req, all));
    const numbers: number[] = [];
    const tokens: Array<string | null> = [];
    let token: string | null = null;
    do {
      const queryParams: Record<string, string> = token === null ? { branch: 'main' } : { branch: 'main', 'page-token': token };
      const { data } = await get({ path: `/project/${SLUG}/pipeline`, queryParams, jq: '{numbers: items[*].number, next: next_page_token}' });
      const page = data as { numbers: number[]; next: string | null };
      numbers.push(...page.numbers);
      token = page.next;
      tokens.push(token);
    } while (token !== null);
    expect(numbers).to.deep.equal(all.map((p) => p.number));
    expect(tokens).to.have.length(3);
    expect(t.mock.requests.map((r) => r.query.get('page-token'))).to.deep.equal([null, tokens[0], tokens[1]]);
    expect(t.mock.requests.every((r) => r.query.get('branch') === 'main')).to.equal(true);
  });

  for (const path of [
    'https://circleci.com/api/v2/me',
    '//evil.example/api/v2/me',
    '/project/../../admin',
    '/project/%2e%2e/me',
    '/project/%252E%252E/me',
    '/project\\me',
    '/me\r\nX-Injected: 1',
  ]) {
    it(`refuses the path ${JSON.stringify(path)} without any request`, async () => {
      const result = await t.kernel.call('circleci_get', { path });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('Code: invalid_path');
      expect(textOf(result)).to.contain('is not allowed for CircleCI');
      expect(t.mock.requests).to.have.length(0);
    });
  }

  it("reports CircleCI's error message with the status", async () => {
    t.mock.on('GET', '/api/v2/project/:vcs/:org/:repo/pipeline', { status: 404, body: circleciFixture('error.json') });
    const result = await t.kernel.call('circleci_get', { path: '/project/gh/acme/missing/pipeline' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.equal(
      'Error: CircleCI answered 404 Not Found for GET /api/v2/project/gh/acme/missing/pipeline. Nothing exists at this path, or the credentials cannot see it: check the path and identifiers.\n' +
        'Code: upstream_http_error\nHTTP Status: 404\n\nRaw API Response:\n{\n  "message": "Project not found"\n}',
    );
  });
});

describe('circleci_get on a CircleCI server installation (base URL with a path)', () => {
  const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: `${url}/circleci`, CIRCLECI_TOKEN: TOKEN }) });

  it('keeps the base path before /api/v2', async () => {
    t.mock.on('GET', '/circleci/api/v2/me', { body: { id: 'c9c8d2ac-4a4b-4a1f-8b5d-4f3b8c6ac2a5', login: 'octocat', name: 'The Octocat' } });
    const result = await t.kernel.call('circleci_get', { path: '/me', jq: 'name' });
    expect(textOf(result)).to.match(/\ndata: The Octocat$/);
  });
});

describe('circleci_get without CIRCLECI_TOKEN', () => {
  const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url }) });

  it('says which setting to set, without any request', async () => {
    const result = await t.kernel.call('circleci_get', { path: '/me' });
    expect(textOf(result)).to.contain('Code: missing_credentials');
    expect(textOf(result)).to.contain('set CIRCLECI_TOKEN');
    expect(t.mock.requests).to.have.length(0);
  });
});

describeUpstreamErrors({
  title: 'CircleCI (circleci_get)',
  config,
  env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN }),
  secret: TOKEN,
  tool: 'circleci_get',
  // fresh: every case reaches the mock, while successes still go through the cache's write path.
  args: { path: `/project/${SLUG}/pipeline`, fresh: true },
  path: `/api/v2/project/${SLUG}/pipeline`,
  ok: () => ({ items: pipelines(3), next_page_token: null }),
  errorBody: (status) => ({
    message: status === 401 ? 'You must log in first.' : status === 404 ? 'Project not found' : status === 429 ? 'Rate limit exceeded' : `Error ${status}`,
  }),
});
