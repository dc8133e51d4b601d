import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { PagedEnvelope } from '../../../core/schema/envelopes.js';
import { githubFixture } from '../../fixtures/github/github-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_getTestToken0123456789';

describe('github_get (read-only passthrough, in-process)', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    otherMocks: 1,
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, GITHUB_CREDENTIAL_LABEL: 'ci-bot (read-only)', GITHUB_ENVIRONMENT: 'production' }),
  });
  const elsewhere = (): MockUpstream => t.others[0]!;

  it('GETs any REST path with its query parameters and renders the bare body (no envelope)', async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/actions/workflows', { body: githubFixture('workflow-paginated.json') });
    const result = await t.kernel.call('github_get', {
      path: '/repos/octo-org/octo-repo/actions/workflows',
      queryParams: { per_page: 50, page: 2, exclude_disabled: true },
      jq: 'workflows[*].{id: id, name: name, state: state}',
    });
    expect(textOf(result)).to.equal('[2]{id,name,state}:\n  161335,CI,active\n  269289,Linter,active');
    expect(Object.fromEntries(t.mock.requests[0]!.query)).to.deep.equal({ per_page: '50', page: '2', exclude_disabled: 'true' });
    expect(t.mock.requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
  });

  it('adds the leading slash to a path given without one', async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/actions/jobs/399444496', { body: githubFixture('job.json') });
    const result = await t.kernel.call('github_get', { path: 'repos/octo-org/octo-repo/actions/jobs/399444496', jq: 'name', outputFormat: 'json' });
    expect(textOf(result)).to.equal('"build"');
  });

  it('treats a bodiless 204 as a success and says so', async () => {
    t.mock.on('GET', '/user/following/octocat', { status: 204 });
    const result = await t.kernel.call('github_get', { path: '/user/following/octocat' });
    expect(result.isError).to.equal(undefined);
    expect(textOf(result)).to.equal('GitHub answered 204 No Content for GET /user/following/octocat: the request succeeded and there is no body.');
  });

  for (const path of [
    'https://evil.example/repos',
    '//evil.example/repos',
    '/repos/../admin',
    '/repos/%2e%2e/admin',
    '/repos/%252e%252e/admin',
    '/repos\\admin',
    '/repos/x\u0000y',
    '/repos/x%0d%0aHost:%20evil',
  ]) {
    it(`refuses the path ${JSON.stringify(path)} without any request`, async () => {
      const result = await t.kernel.call('github_get', { path });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('Code: invalid_path');
      expect(t.mock.requests).to.have.length(0);
    });
  }

  it('refuses to follow a redirect to another origin, so the token never goes there', async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/tarball/main', {
      status: 302,
      headers: { location: `${elsewhere().url}/codeload/octo-org/octo-repo/legacy.tar.gz/main` },
    });
    const result = await t.kernel.call('github_get', { path: '/repos/octo-org/octo-repo/tarball/main' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('Code: upstream_redirect_refused');
    expect(textOf(result)).to.contain(`to another origin (${elsewhere().url})`);
    expect(elsewhere().requests).to.have.length(0);
  });

  it("follows a redirect within GitHub's origin (a renamed repository), keeping the token", async () => {
    t.mock.on('GET', '/repos/octo-org/old-name', {
      status: 301,
      headers: { location: `${t.mock.url}/repositories/1296269` },
      body: { message: 'Moved Permanently', url: `${t.mock.url}/repositories/1296269` },
    });
    t.mock.on('GET', '/repositories/1296269', { body: { id: 1296269, full_name: 'octo-org/new-name' } });
    const result = await t.kernel.call('github_get', { path: '/repos/octo-org/old-name', jq: 'full_name' });
    expect(textOf(result)).to.equal('octo-org/new-name');
    expect(t.mock.requests.map((r) => [r.path, r.headers.authorization])).to.deep.equal([
      ['/repos/octo-org/old-name', `Bearer ${TOKEN}`],
      ['/repositories/1296269', `Bearer ${TOKEN}`],
    ]);
  });

  it('exposes its upstream identity to policy and cache (label, environment, host), never the token', () => {
    const definitions = t.kernel.kernel.definitions().filter((d) => d.plugin === 'github');
    expect(definitions).to.have.length(23);
    // Every GitHub tool, writes included, acts with the one GitHub identity.
    expect(new Set(definitions.map((d) => d.upstream!.identity)).size).to.equal(1);
    const identity = definitions[0]!.upstream!.identity;
    expect(identity).to.deep.include({ vendor: 'github', credential: 'ci-bot (read-only)', environment: 'production', host: new URL(t.mock.url).host });
    expect(identity.fingerprint).to.match(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(identity)).not.to.contain(TOKEN);
  });

  it('declares the Paged envelope on the two list tools only', () => {
    const envelopes = Object.fromEntries(t.kernel.kernel.definitions().map((d) => [d.spec.name, d.spec.envelope]));
    expect(envelopes.github_list_workflow_runs).to.equal(PagedEnvelope);
    expect(envelopes.github_list_workflow_jobs).to.equal(PagedEnvelope);
    expect(envelopes.github_get).to.equal(undefined);
    expect(envelopes.github_get_job_logs).to.equal(undefined);
  });
});
