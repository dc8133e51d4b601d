import { expect } from 'chai';
import { githubFixture, rateLimitHeaders } from '../../fixtures/github/github-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { describeUpstreamErrors } from '../../support/upstream-error-suite.js';

const TOKEN = 'ghp_errorsTestToken0123456789';
const RUNS_PATH = '/repos/octo-org/octo-repo/actions/runs';
const config = JSON.stringify({ plugins: ['github'] });

/** GitHub's error body: a message and a documentation link (422 adds the failed fields). */
function githubError(status: number): unknown {
  const message: Record<number, string> = {
    401: 'Bad credentials',
    404: 'Not Found',
    422: 'Validation Failed',
    429: 'API rate limit exceeded',
    500: 'Server Error',
    503: 'Service Unavailable',
  };
  const body: Record<string, unknown> = {
    message: message[status] ?? 'Error',
    documentation_url: 'https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository',
    status: String(status),
  };
  if (status === 422) body.errors = [{ resource: 'WorkflowRun', field: 'created', code: 'invalid' }];
  return body;
}

describeUpstreamErrors({
  title: 'GitHub (github_list_workflow_runs)',
  config,
  env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN }),
  secret: TOKEN,
  tool: 'github_list_workflow_runs',
  args: { owner: 'octo-org', repo: 'octo-repo' },
  path: RUNS_PATH,
  ok: () => githubFixture('workflow-run-paginated.json'),
  errorBody: githubError,
});

describe('GitHub rate limits (403 primary and secondary, as GitHub sends them)', () => {
  // Without the governor: each case is what one answer becomes (the governor's own: rate-limit-governor.test.ts).
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_RATE_LIMIT_GOVERNOR: 'false' }) });

  const failure = async (): Promise<string> => {
    const result = await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo' });
    expect(result.isError).to.equal(true);
    return textOf(result);
  };

  it('primary limit (403, x-ratelimit-remaining 0): retry at x-ratelimit-reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 1800;
    t.mock.on('GET', RUNS_PATH, {
      status: 403,
      headers: { ...rateLimitHeaders(0), 'x-ratelimit-reset': String(reset) },
      body: {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
      },
    });
    const text = await failure();
    expect(text).to.contain('Code: upstream_rate_limited');
    expect(text).to.match(
      /GitHub answered 403 Forbidden for GET \/repos\/octo-org\/octo-repo\/actions\/runs: rate limit exceeded\. Retry after 1(799|800) seconds \(at [\dT:-]+Z\)\./,
    );
    expect(text).to.contain('API rate limit exceeded for user ID 1.');
    expect(t.mock.requests).to.have.length(1);
  });

  it('secondary limit (403 with Retry-After): retry after the time given', async () => {
    t.mock.on('GET', RUNS_PATH, {
      status: 403,
      headers: { ...rateLimitHeaders(4000), 'retry-after': '60' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      },
    });
    const text = await failure();
    expect(text).to.contain('rate limit exceeded. Retry after 60 seconds (at ');
    expect(text).to.contain('Retry After: 60 seconds');
  });

  it('secondary limit as 429 with Retry-After', async () => {
    t.mock.on('GET', RUNS_PATH, { status: 429, headers: { 'retry-after': '90' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    expect(await failure()).to.contain('Retry After: 90 seconds');
  });

  it('a 403 with requests left is a permission problem, not a rate limit', async () => {
    t.mock.on('GET', RUNS_PATH, {
      status: 403,
      headers: rateLimitHeaders(4999),
      body: { message: 'Resource not accessible by personal access token', documentation_url: 'https://docs.github.com/rest' },
    });
    const text = await failure();
    expect(text).to.contain('Code: upstream_http_error');
    expect(text).to.contain('The credentials lack permission for this resource.');
    expect(text).not.to.contain('rate limit');
  });
});
