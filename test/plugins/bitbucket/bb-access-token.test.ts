import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { bitbucketError, bitbucketJson, bitbucketPage, pullRequests } from '../../fixtures/bitbucket/bitbucket-api.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

const ACCESS_TOKEN = 'ATCTT3xFfGN0-repo-access-token-1b7f2c';
const ACCOUNT = { ATLASSIAN_USER_EMAIL: 'mia.krystof@acme.example', ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-shared-with-jira-77aa' };
const REPO = { workspace: 'acme', repoSlug: 'checkout-service' };

// Bitbucket Cloud access tokens (repository, project, workspace) and Data Center HTTP access tokens / personal
// access tokens all travel as `Authorization: Bearer`.
// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('BITBUCKET_ACCESS_TOKEN: Bearer auth beside the Basic credentials', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  const kernels: TestKernel[] = [];

  async function kernelWith(env: Record<string, string>): Promise<TestKernel> {
    const kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['bitbucket'] }) },
      env: { BITBUCKET_BASE_URL: mock.url, MCP_FENCE: 'false', ...env },
    });
    kernels.push(kernel);
    return kernel;
  }
  const credentialOf = (kernel: TestKernel, tool: string): string =>
    kernel.kernel.definitions().find((d) => d.spec.name === tool)!.upstream!.identity.credential;

  before(async () => {
    mock = await MockUpstream.start();
  });
  beforeEach(() => mock.reset());
  after(async () => {
    for (const kernel of kernels) await kernel.close();
    await mock.close();
  });

  it('sends the access token as Bearer from typed tools and passthroughs, before an Atlassian account also set', async () => {
    const kernel = await kernelWith({ ...ACCOUNT, BITBUCKET_ACCESS_TOKEN: ACCESS_TOKEN });
    mock.on('GET', '/2.0/repositories/acme/checkout-service/pullrequests', (req) => bitbucketPage(req, pullRequests(1)));
    mock.on('POST', '/2.0/repositories/acme/checkout-service/pipelines', { status: 201, body: bitbucketJson('pipeline-created.json') });
    mock.on('GET', '/2.0/user', { body: { nickname: 'repo-bot' } });
    await kernel.call('bb_list_pull_requests', REPO);
    await kernel.call('bb_run_pipeline', { ...REPO, branch: 'main' });
    expect(textOf(await kernel.call('bb_get', { path: '/user' }))).to.equal('nickname: repo-bot');
    // Four: the pull requests, the repository (read for its is_private, the labels' confidentiality), the pipeline, the user.
    expect(mock.requests.map((r) => r.headers.authorization)).to.deep.equal(Array(4).fill(`Bearer ${ACCESS_TOKEN}`));
    expect(credentialOf(kernel, 'bb_list_pull_requests')).to.equal('BITBUCKET_ACCESS_TOKEN');
    expect(credentialOf(kernel, 'bb_get')).to.equal('BITBUCKET_ACCESS_TOKEN');
  });

  it('masks the token wherever Bitbucket echoes it, in results and errors', async () => {
    const kernel = await kernelWith({ BITBUCKET_ACCESS_TOKEN: ACCESS_TOKEN });
    mock.on('GET', '/2.0/user', (req) => ({ body: { seen: req.headers.authorization, token: ACCESS_TOKEN } }));
    mock.on('POST', '/2.0/repositories/acme/checkout-service/pullrequests/412/comments', bitbucketError(400, `Bad request for ${ACCESS_TOKEN}`));
    const read = textOf(await kernel.call('bb_get', { path: '/user' }));
    const failed = textOf(await kernel.call('bb_add_pull_request_comment', { ...REPO, pullRequestId: 412, body: 'x' }));
    for (const text of [read, failed]) expect(text).not.to.contain(ACCESS_TOKEN);
    expect(failed).to.contain('HTTP Status: 400');
  });

  it('names the access token when Bitbucket refuses it (401)', async () => {
    const kernel = await kernelWith({ BITBUCKET_ACCESS_TOKEN: ACCESS_TOKEN });
    mock.on('GET', '/2.0/user', bitbucketError(401, 'Token is invalid, expired, or not supported for this endpoint.'));
    mock.on('GET', '/2.0/repositories/acme/checkout-service/pipelines', bitbucketError(401, 'Token is invalid, expired, or not supported for this endpoint.'));
    expect(textOf(await kernel.call('bb_get', { path: '/user' }))).to.contain('Bitbucket authenticated with BITBUCKET_ACCESS_TOKEN (sent as Bearer');
    expect(textOf(await kernel.call('bb_list_pipelines', REPO))).to.contain('BITBUCKET_ACCESS_TOKEN');
  });

  it('works with Bitbucket Data Center: a personal access token as Bearer, under its context path and /rest prefix', async () => {
    const kernel = await kernelWith({
      BITBUCKET_ACCESS_TOKEN: ACCESS_TOKEN,
      BITBUCKET_BASE_URL: `${mock.url}/bitbucket`,
      BITBUCKET_API_PREFIXES: '/rest/api/1.0',
    });
    mock.on('GET', '/bitbucket/rest/api/1.0/projects', { body: { size: 1, values: [{ key: 'PLAT' }], isLastPage: true } });
    expect(textOf(await kernel.call('bb_get', { path: '/projects', jq: 'values[*].key' }))).to.equal('[1]: PLAT');
    expect(mock.requests[0]!.headers.authorization).to.equal(`Bearer ${ACCESS_TOKEN}`);
  });

  it('keeps the Basic credentials when no access token is set, and says all three ways when none is', async () => {
    const basic = await kernelWith(ACCOUNT);
    expect(credentialOf(basic, 'bb_list_pipelines')).to.equal('ATLASSIAN_API_TOKEN');
    const none = await kernelWith({});
    const text = textOf(await none.call('bb_list_pipelines', REPO));
    expect(text).to.contain('Code: missing_credentials');
    expect(text).to.contain('set BITBUCKET_ACCESS_TOKEN (an access token, sent as Bearer)');
    expect(text).to.contain('ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD');
    expect(mock.requests).to.have.length(0);
  });
});
