import { expect } from 'chai';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';
import { GitlabPlugin } from '../src/index.js';
import { API_PREFIX, fixture, gitlabError, serveGitlab } from './gitlab-api.js';

const TOKEN = 'glpat-example-8f2d1c9b7a6e5d4c';

describe('gitlab plugin, in-process against a GitLab-speaking mock', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    kernel = await startTestKernel({
      plugins: [GitlabPlugin],
      env: { GITLAB_API_URL: `${mock.url}${API_PREFIX}`, GITLAB_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: 'true' },
    });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    serveGitlab(mock);
  });

  describe('gitlab_list_pipelines (Paged)', () => {
    it('sends the token as PRIVATE-TOKEN to the encoded project path, with the filters as GitLab names them', async () => {
      await kernel.call('gitlab_list_pipelines', { project: 'acme-group/platform/api', status: 'failed', ref: 'main', perPage: 5 });
      const [request] = mock.requests;
      expect(request?.url).to.equal(`${API_PREFIX}/projects/acme-group%2Fplatform%2Fapi/pipelines?status=failed&ref=main&page=1&per_page=5`);
      expect(request?.headers['private-token']).to.equal(TOKEN);
      expect(request?.headers.authorization).to.equal(undefined);
    });

    it('gives the page and the next page from X-Next-Page, in the text and the structured value alike', async () => {
      const result = await kernel.call('gitlab_list_pipelines', { project: '48210337', perPage: 3, jq: '[*].{id: id, status: status}', outputFormat: 'json' });
      const expected = {
        data: fixture('pipelines')
          .slice(0, 3)
          .map((p) => ({ id: p.id, status: p.status })),
        nextPage: 2,
      };
      expect(result.structuredContent).to.deep.equal(expected);
      expect(JSON.parse(textOf(result))).to.deep.equal(expected);
    });

    it('renders TOON by default', async () => {
      const result = await kernel.call('gitlab_list_pipelines', { project: '48210337', perPage: 2, jq: '[*].{id: id, ref: ref}' });
      expect(textOf(result)).to.equal('nextPage: 2\ndata[2]{id,ref}:\n  1187400,main\n  1187387,refs/merge-requests/412/head');
    });

    it('gives nextPage null on the last page', async () => {
      const result = await kernel.call('gitlab_list_pipelines', { project: '48210337', perPage: 3, page: 3, jq: 'length(@)' });
      expect(result.structuredContent).to.deep.equal({ data: 2, nextPage: null });
    });

    it('falls back to the Link header when GitLab leaves out X-Next-Page (lists over 10,000 items)', async () => {
      mock.on('GET', `${API_PREFIX}/projects/:project/pipelines`, {
        headers: {
          link: `<${mock.url}${API_PREFIX}/projects/9/pipelines?page=8&per_page=20>; rel="next", <${mock.url}${API_PREFIX}/projects/9/pipelines?page=1&per_page=20>; rel="first"`,
        },
        body: fixture('pipelines'),
      });
      const result = await kernel.call('gitlab_list_pipelines', { project: '9', page: 7, jq: 'length(@)' });
      expect(result.structuredContent).to.deep.equal({ data: 8, nextPage: 8 });
    });

    it('refuses a project that would climb out of /projects/, without any request', async () => {
      const result = await kernel.call('gitlab_list_pipelines', { project: 'group/../../users' });
      expect(textOf(result)).to.contain('Code: invalid_path');
      expect(mock.requests).to.have.length(0);
    });

    it('names a bad argument and the values allowed, without any request', async () => {
      const result = await kernel.call('gitlab_list_pipelines', { project: '9', status: 'green', perPage: 500 });
      expect(result.isError).to.equal(true);
      const text = textOf(result);
      expect(text).to.contain('Invalid arguments for gitlab_list_pipelines');
      expect(text).to.contain('- status:');
      expect(text).to.contain('- perPage:');
      expect(mock.requests).to.have.length(0);
    });
  });

  describe('gitlab_list_pipeline_jobs (Paged)', () => {
    it('lists the failed jobs of a pipeline with their failure reasons', async () => {
      const result = await kernel.call('gitlab_list_pipeline_jobs', {
        project: 'acme-group/platform/api',
        pipelineId: 1187400,
        scope: 'failed',
        jq: '[*].{name: name, reason: failure_reason}',
      });
      expect(mock.requests[0]?.url).to.equal(`${API_PREFIX}/projects/acme-group%2Fplatform%2Fapi/pipelines/1187400/jobs?scope=failed&page=1&per_page=20`);
      expect(result.structuredContent).to.deep.equal({
        data: [
          { name: 'unit: [ruby 3.3]', reason: 'script_failure' },
          { name: 'integration ✓ postgres', reason: 'stuck_or_timeout_failure' },
        ],
        nextPage: null,
      });
    });
  });

  describe('gitlab_get', () => {
    it('reads any API path with its query parameters, as {data}', async () => {
      mock.on('GET', `${API_PREFIX}/projects/:project/merge_requests`, (request) => ({
        body: [{ iid: 412, state: request.query.get('state'), title: 'Cache keys include the lockfile hash' }],
      }));
      const result = await kernel.call('gitlab_get', {
        path: '/projects/acme-group%2Fplatform%2Fapi/merge_requests',
        queryParams: { state: 'opened' },
        jq: '[*].iid',
      });
      expect(mock.requests[0]?.url).to.equal(`${API_PREFIX}/projects/acme-group%2Fplatform%2Fapi/merge_requests?state=opened`);
      expect(result.structuredContent).to.deep.equal({ data: [412] });
      expect(textOf(result)).to.equal('[1]: 412');
    });

    for (const path of ['../../admin', '/projects/1/%2e%2e/%2e%2e/users', 'https://evil.example/api/v4/user', '//evil.example/x']) {
      it(`refuses the path ${JSON.stringify(path)} without any request`, async () => {
        const result = await kernel.call('gitlab_get', { path });
        expect(textOf(result)).to.contain('Code: invalid_path');
        expect(mock.requests).to.have.length(0);
      });
    }
  });

  describe('GitLab errors', () => {
    it("reports a 404 with GitLab's message and what to check", async () => {
      mock.on('GET', `${API_PREFIX}/projects/:project/pipelines`, gitlabError(404, '404 Project Not Found'));
      const text = textOf(await kernel.call('gitlab_list_pipelines', { project: 'acme-group/missing' }));
      expect(text).to.match(/^Error: GitLab answered 404 Not Found for GET \/api\/v4\/projects\/acme-group%2Fmissing\/pipelines\./);
      expect(text).to.contain('Code: upstream_http_error');
      expect(text).to.contain('"message": "404 Project Not Found"');
    });

    it('says when to retry after a 429, from Retry-After', async () => {
      // A Retry-After within MCP_RATE_LIMIT_MAX_WAIT_SECONDS (30) is waited out by the server's rate-limit governor,
      // for a third-party plugin's client too; a farther one reaches the agent at once, with when to retry, and holds
      // that credential's later calls: a kernel with a token of its own, so the other cases' token is not held.
      mock.on('GET', `${API_PREFIX}/projects/:project/pipelines`, {
        status: 429,
        headers: { 'retry-after': '120', 'ratelimit-limit': '2000', 'ratelimit-remaining': '0', 'ratelimit-reset': '1791393600', 'content-type': 'text/plain' },
        body: 'Retry later\n',
      });
      const limited = await startTestKernel({
        plugins: [GitlabPlugin],
        env: { GITLAB_API_URL: `${mock.url}${API_PREFIX}`, GITLAB_TOKEN: 'glpat-rateLimited0123456789', MCP_STRUCTURED_OUTPUT: 'true' },
      });
      try {
        const result = await limited.call('gitlab_list_pipelines', { project: '9' });
        expect(result.structuredContent).to.equal(undefined);
        expect(textOf(result)).to.match(/rate limit exceeded\. Retry after 120 seconds \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\./);
        expect(textOf(result)).to.contain('Code: upstream_rate_limited');
      } finally {
        await limited.close();
      }
    });

    it('never shows the token, even when GitLab echoes it back, in results or logs', async () => {
      mock.on('GET', `${API_PREFIX}/projects/:project/pipelines`, gitlabError(401, `401 Unauthorized: token ${TOKEN} has expired`));
      const result = await kernel.call('gitlab_list_pipelines', { project: '9' });
      expect(textOf(result)).to.contain('GitLab answered 401');
      expect(textOf(result)).not.to.contain(TOKEN);
      expect(kernel.logs.join('\n')).not.to.contain(TOKEN);
    });
  });
});

describe('gitlab plugin settings', () => {
  let mock: MockUpstream;
  before(async () => {
    mock = await MockUpstream.start();
    serveGitlab(mock);
  });
  after(async () => mock.close());

  it('sends an OAuth token as Authorization: Bearer with GITLAB_AUTH_SCHEME=bearer', async () => {
    const kernel = await startTestKernel({
      plugins: [GitlabPlugin],
      env: { GITLAB_API_URL: `${mock.url}${API_PREFIX}`, GITLAB_TOKEN: 'oauth-token-1f2e3d4c', GITLAB_AUTH_SCHEME: 'bearer' },
    });
    try {
      await kernel.call('gitlab_list_pipelines', { project: '9' });
      expect(mock.requests.at(-1)?.headers.authorization).to.equal('Bearer oauth-token-1f2e3d4c');
      expect(mock.requests.at(-1)?.headers['private-token']).to.equal(undefined);
    } finally {
      await kernel.close();
    }
  });

  it('says which setting to set when there is no token, without any request', async () => {
    // Named in MCP_TOOLSETS: with nothing named, the default tools leave out a plugin without credentials.
    const kernel = await startTestKernel({ plugins: [GitlabPlugin], env: { GITLAB_API_URL: `${mock.url}${API_PREFIX}`, MCP_TOOLSETS: 'gitlab' } });
    const before = mock.requests.length;
    try {
      const text = textOf(await kernel.call('gitlab_list_pipelines', { project: '9' }));
      expect(text).to.equal(
        'Error: GitLab credentials are not configured: set GITLAB_TOKEN to an access token with the read_api scope.\nCode: missing_credentials',
      );
      expect(mock.requests.length).to.equal(before);
    } finally {
      await kernel.close();
    }
  });

  it('refuses to start with an unknown auth scheme, naming the setting', async () => {
    let message = '';
    await startTestKernel({ plugins: [GitlabPlugin], env: { GITLAB_AUTH_SCHEME: 'basic' } }).catch((e: Error) => (message = e.message));
    expect(message).to.contain('Setting GITLAB_AUTH_SCHEME="basic" from environment');
  });
});
