import { expect } from 'chai';
import { MockUpstream } from '../../../core/testing/mock-upstream.js';
import { githubFixture } from '../../fixtures/github/github-api.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

const TOKEN = 'ghp_getTestToken0123456789';

describe('github_get (read-only passthrough, in-process)', () => {
  let mock: MockUpstream;
  let elsewhere: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    elsewhere = await MockUpstream.start();
    kernel = await startTestKernel({ configFile: { content: JSON.stringify({ plugins: ['github'] }) }, env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: TOKEN } });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
    await elsewhere.close();
  });
  beforeEach(() => {
    mock.reset();
    elsewhere.reset();
  });

  it('GETs any REST path with its query parameters and renders the bare body (no envelope)', async () => {
    mock.on('GET', '/repos/octo-org/octo-repo/actions/workflows', { body: githubFixture('workflow-paginated.json') });
    const result = await kernel.call('github_get', {
      path: '/repos/octo-org/octo-repo/actions/workflows',
      queryParams: { per_page: 50, page: 2, exclude_disabled: true },
      jq: 'workflows[*].{id: id, name: name, state: state}',
    });
    expect(textOf(result)).to.equal('[2]{id,name,state}:\n  161335,CI,active\n  269289,Linter,active');
    expect(Object.fromEntries(mock.requests[0]!.query)).to.deep.equal({ per_page: '50', page: '2', exclude_disabled: 'true' });
    expect(mock.requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
  });

  it('adds the leading slash to a path given without one', async () => {
    mock.on('GET', '/repos/octo-org/octo-repo/actions/jobs/399444496', { body: githubFixture('job.json') });
    const result = await kernel.call('github_get', { path: 'repos/octo-org/octo-repo/actions/jobs/399444496', jq: 'name', outputFormat: 'json' });
    expect(textOf(result)).to.equal('"build"');
  });

  it('treats a bodiless 204 as a success and says so', async () => {
    mock.on('GET', '/user/following/octocat', { status: 204 });
    const result = await kernel.call('github_get', { path: '/user/following/octocat' });
    expect(result.isError).to.equal(undefined);
    expect(textOf(result)).to.equal('GitHub answered 204 No Content for GET /user/following/octocat: the request succeeded and there is no body.');
  });

  for (const path of ['https://evil.example/repos', '//evil.example/repos', '/repos/../admin', '/repos/%2e%2e/admin', '/repos/%252e%252e/admin', '/repos\\admin', '/repos/x\u0000y', '/repos/x%0d%0aHost:%20evil']) {
    it(`refuses the path ${JSON.stringify(path)} without any request`, async () => {
      const result = await kernel.call('github_get', { path });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('Code: invalid_path');
      expect(mock.requests).to.have.length(0);
    });
  }

  it('refuses to follow a redirect to another origin, so the token never goes there', async () => {
    mock.on('GET', '/repos/octo-org/octo-repo/tarball/main', { status: 302, headers: { location: `${elsewhere.url}/codeload/octo-org/octo-repo/legacy.tar.gz/main` } });
    const result = await kernel.call('github_get', { path: '/repos/octo-org/octo-repo/tarball/main' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('Code: upstream_redirect_refused');
    expect(textOf(result)).to.contain(`to another origin (${elsewhere.url})`);
    expect(elsewhere.requests).to.have.length(0);
  });

  it('follows a redirect within GitHub\'s origin (a renamed repository), keeping the token', async () => {
    mock.on('GET', '/repos/octo-org/old-name', { status: 301, headers: { location: `${mock.url}/repositories/1296269` }, body: { message: 'Moved Permanently', url: `${mock.url}/repositories/1296269` } });
    mock.on('GET', '/repositories/1296269', { body: { id: 1296269, full_name: 'octo-org/new-name' } });
    const result = await kernel.call('github_get', { path: '/repos/octo-org/old-name', jq: 'full_name' });
    expect(textOf(result)).to.equal('octo-org/new-name');
    expect(mock.requests.map((r) => [r.path, r.headers.authorization])).to.deep.equal([
      ['/repos/octo-org/old-name', `Bearer ${TOKEN}`],
      ['/repositories/1296269', `Bearer ${TOKEN}`],
    ]);
  });
});
