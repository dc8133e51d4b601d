import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { circleciFixture } from '../fixtures/circleci/circleci-api.js';
import { FAILED_TEST_OUTPUT, serveJobLogs } from '../fixtures/circleci/circleci-v1.js';
import { TEST_MODULES } from '../support/paths.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';
import { textOf } from '../support/test-kernel.js';

// Requests held against the vendors' own references (CircleCI's OpenAPI description and MCP server, GitHub's
// OpenAPI description, Bitbucket Data Center's REST API), over stdio with the official SDK client against the
// built server and loopback mocks speaking each vendor's wire format.

/** One stdio server against one vendor mock, with the settings a block gives. */
interface Served {
  mock: MockUpstream;
  session: StdioSession;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

function useServer(env: (mockUrl: string) => Record<string, string>): Served {
  const fixture = {} as Served;
  before(async function () {
    this.timeout(60_000);
    fixture.mock = await MockUpstream.start();
    fixture.session = await connectStdio({ env: { MCP_STRUCTURED_OUTPUT: 'true', ...env(fixture.mock.url) } });
  });
  after(async () => {
    await fixture.session?.close();
    await fixture.mock?.close();
  });
  beforeEach(() => fixture.mock.reset());
  fixture.call = async (name, args) => (await fixture.session.client.callTool({ name, arguments: args })) as CallToolResult;
  return fixture;
}

const data = (result: CallToolResult): Record<string, unknown> => (result.structuredContent as { data: Record<string, unknown> }).data;

describe('vendor reference fixes, over stdio', function () {
  this.timeout(30_000);

  describe('CircleCI', () => {
    const t = useServer((url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'CCIPAT_referenceFixes_0123456789' }));
    const APP_SLUG = 'circleci/3f1c6d2e-0b4a-4c5e-9d8f-1a2b3c4d5e6f/7e8d9c0b-1a2f-4e3d-8c5b-6a7f8e9d0c1b';
    const DEFINITIONS = `/api/v2/projects/7e8d9c0b-1a2f-4e3d-8c5b-6a7f8e9d0c1b/pipeline-definitions`;
    const definition = (id: string, name: string): Record<string, unknown> => ({
      id,
      name,
      description: '',
      created_at: '2026-09-01T10:00:00Z',
      config_source: { provider: 'github_app', repo: { full_name: 'acme/api', external_id: '771' }, file_path: '.circleci/config.yml' },
      checkout_source: { provider: 'github_app', repo: { full_name: 'acme/api', external_id: '771' } },
    });

    it('triggers a GitHub App project through pipeline/run with its only pipeline definition, looked up', async () => {
      t.mock.on('GET', DEFINITIONS, { body: { items: [definition('2338d0ae-5541-4bbf-88a2-55e9f7281f80', 'build')] } });
      t.mock.on('POST', `/api/v2/project/${APP_SLUG}/pipeline/run`, { status: 201, body: circleciFixture('pipeline-created.json') });
      const result = await t.call('circleci_trigger_pipeline', { projectSlug: APP_SLUG, branch: 'main', parameters: { deploy: false } });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(t.mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`GET ${DEFINITIONS}`, `POST /api/v2/project/${APP_SLUG}/pipeline/run`]);
      expect(JSON.parse(t.mock.requests[1]!.body)).to.deep.equal({
        definition_id: '2338d0ae-5541-4bbf-88a2-55e9f7281f80',
        config: { branch: 'main' },
        checkout: { branch: 'main' },
        parameters: { deploy: false },
      });
      expect(data(result)).to.deep.include({ number: 26, state: 'pending', branch: 'main' });
    });

    it('takes the definition as input, and names the definitions when there are several, triggering nothing', async () => {
      t.mock.on('GET', DEFINITIONS, {
        body: { items: [definition('2338d0ae-5541-4bbf-88a2-55e9f7281f80', 'build'), definition('9b1e2c3d-4f5a-4b6c-8d7e-0f1a2b3c4d5e', 'nightly')] },
      });
      t.mock.on('POST', `/api/v2/project/${APP_SLUG}/pipeline/run`, { status: 201, body: circleciFixture('pipeline-created.json') });
      const several = await t.call('circleci_trigger_pipeline', { projectSlug: APP_SLUG });
      expect(several.isError).to.equal(true);
      expect(textOf(several)).to.contain(
        '2 pipeline definitions: "build" (2338d0ae-5541-4bbf-88a2-55e9f7281f80), "nightly" (9b1e2c3d-4f5a-4b6c-8d7e-0f1a2b3c4d5e)',
      );
      expect(textOf(several)).to.contain('definitionId');
      expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['GET']);
      t.mock.reset();
      t.mock.on('POST', `/api/v2/project/${APP_SLUG}/pipeline/run`, { status: 201, body: circleciFixture('pipeline-created.json') });
      const given = await t.call('circleci_trigger_pipeline', { projectSlug: APP_SLUG, definitionId: '9b1e2c3d-4f5a-4b6c-8d7e-0f1a2b3c4d5e' });
      expect(given.isError, textOf(given)).to.equal(undefined);
      expect(t.mock.requests.map((r) => [r.path, JSON.parse(r.body)])).to.deep.equal([
        [`/api/v2/project/${APP_SLUG}/pipeline/run`, { definition_id: '9b1e2c3d-4f5a-4b6c-8d7e-0f1a2b3c4d5e' }],
      ]);
    });

    it('keeps the old trigger for a GitHub OAuth project', async () => {
      t.mock.on('POST', '/api/v2/project/gh/acme/api/pipeline', { status: 201, body: circleciFixture('pipeline-created.json') });
      const result = await t.call('circleci_trigger_pipeline', { projectSlug: 'gh/acme/api', branch: 'main' });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(t.mock.requests.map((r) => [r.path, JSON.parse(r.body)])).to.deep.equal([['/api/v2/project/gh/acme/api/pipeline', { branch: 'main' }]]);
    });

    it('answers flaky tests in the shape CircleCI serves, whichever spelling came, and its documented jq finds them', async () => {
      const hyphenated = circleciFixture<{ 'flaky-tests': Array<Record<string, unknown>> }>('flaky-tests.json');
      const served = {
        flaky_tests: hyphenated['flaky-tests'].map((test) => Object.fromEntries(Object.entries(test).map(([k, v]) => [k.replace(/-/g, '_'), v]))),
        total_flaky_tests: hyphenated['flaky-tests'].length,
      };
      // The jq example the tool's description gives, as tools/list shows it.
      const listed = (await t.session.client.listTools()).tools.find((tool) => tool.name === 'circleci_flaky_tests')!;
      const jq = /jq e\.g\. '([^']+)'/.exec(listed.description ?? '')?.[1];
      expect(jq).to.equal('flaky_tests[*].test_name');
      for (const body of [served, hyphenated]) {
        t.mock.on('GET', '/api/v2/insights/gh/acme/api/flaky-tests', { body });
        const result = await t.call('circleci_flaky_tests', { projectSlug: 'gh/acme/api', jq });
        expect(textOf(result), JSON.stringify(Object.keys(body))).to.contain('retries a webhook after a timeout');
        const whole = data(await t.call('circleci_flaky_tests', { projectSlug: 'gh/acme/api' }));
        expect(whole.total_flaky_tests).to.equal(2);
        expect((whole.flaky_tests as Array<Record<string, unknown>>)[0]).to.deep.include({ test_name: 'retries a webhook after a timeout', times_flaked: 3 });
      }
    });

    it("reads a step's output from the CircleCI server's own host, as its declared */** allows, without the token", async () => {
      serveJobLogs(t.mock, t.mock, { 103: FAILED_TEST_OUTPUT });
      const result = await t.call('circleci_logs', { projectSlug: 'gh/CircleCI-Public/api-preview-docs', jobNumber: 1262 });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(textOf(result)).to.contain('AssertionError: expected 2 to equal 1');
      const output = t.mock.requests.filter((r) => r.path.endsWith('/output'));
      expect(output).to.have.length(1);
      expect(output[0]!.headers['circle-token']).to.equal(undefined);
    });
  });

  describe('GitHub Enterprise Server', () => {
    const t = useServer((url) => ({ GITHUB_API_URL: `${url}/api/v3`, GITHUB_TOKEN: 'ghp_referenceFixesGhes0123456789' }));

    it('posts GraphQL to /api/graphql, where GHES serves it', async () => {
      t.mock.on('POST', '/api/graphql', { body: { data: { viewer: { login: 'octocat' } } } });
      const result = await t.call('github_graphql', { query: 'query { viewer { login } }' });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(t.mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /api/graphql']);
      expect(textOf(result)).to.contain('octocat');
    });

    it('dispatches a workflow without return_run_details, which GHES does not offer', async () => {
      t.mock.on('POST', '/api/v3/repos/acme/api/actions/workflows/deploy.yml/dispatches', { status: 204 });
      const result = await t.call('github_dispatch_workflow', { owner: 'acme', repo: 'api', workflowId: 'deploy.yml', ref: 'main' });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ ref: 'main' });
      expect(data(result)).to.have.property('runs');
    });
  });

  describe('GitHub (github.com API shape)', () => {
    const t = useServer((url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_referenceFixesCloud0123456789' }));
    const example = (name: string): Record<string, unknown> => {
      const api = JSON.parse(readFileSync(resolve(TEST_MODULES, '@octokit/openapi/generated/api.github.com.json'), 'utf8')) as {
        components: { examples: Record<string, { value: Record<string, unknown> }> };
      };
      return api.components.examples[name]!.value;
    };

    it('asks a dispatch for its run and answers with it', async () => {
      t.mock.on('POST', '/repos/acme/api/actions/workflows/deploy.yml/dispatches', {
        status: 200,
        body: {
          workflow_run_id: 30433642,
          run_url: `${t.mock.url}/repos/acme/api/actions/runs/30433642`,
          html_url: 'https://github.com/acme/api/actions/runs/30433642',
        },
      });
      const result = await t.call('github_dispatch_workflow', { owner: 'acme', repo: 'api', workflowId: 'deploy.yml', ref: 'main' });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ ref: 'main', return_run_details: true });
      expect(data(result)).to.deep.include({ run_id: 30433642, html_url: 'https://github.com/acme/api/actions/runs/30433642' });
    });

    it('reads a pull request compactly by default, whole with fields "all" or through jq', async () => {
      const pr = example('pull-request');
      expect(JSON.stringify(pr).length).to.be.greaterThan(20_000);
      t.mock.on('GET', '/repos/octocat/Hello-World/pulls/1347', { body: pr });
      const compact = await t.call('github_get_pull_request', { owner: 'octocat', repo: 'Hello-World', pullNumber: 1347 });
      expect(compact.isError, textOf(compact)).to.equal(undefined);
      expect(textOf(compact).length).to.be.at.most(7_500);
      expect(data(compact)).to.deep.include({ number: 1347, state: 'open', title: 'Amazing new feature', user: 'octocat', mergeable: true });
      expect(data(compact).head).to.deep.equal({ ref: 'new-topic', sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e', repo: 'octocat/Hello-World' });
      const all = await t.call('github_get_pull_request', { owner: 'octocat', repo: 'Hello-World', pullNumber: 1347, fields: 'all' });
      expect(data(all)).to.have.nested.property('head.repo.owner.login', 'octocat');
      const projected = await t.call('github_get_pull_request', { owner: 'octocat', repo: 'Hello-World', pullNumber: 1347, jq: 'head.repo.clone_url' });
      expect(textOf(projected)).to.contain('https://github.com/octocat/Hello-World.git');
    });
  });

  describe('Bitbucket Data Center', () => {
    const t = useServer((url) => ({
      BITBUCKET_BASE_URL: url,
      BITBUCKET_API_PREFIXES: '/rest/api/1.0',
      BITBUCKET_ACCESS_TOKEN: 'BBDC-referenceFixes0123456789',
    }));
    const REPO = '/rest/api/1.0/projects/PLAT/repos/api/pull-requests';
    const pullRequest = (id: number): Record<string, unknown> => ({
      id,
      version: 2,
      title: `Change ${id}`,
      state: 'OPEN',
      open: true,
      closed: false,
      createdDate: 1_790_000_000_000,
      updatedDate: 1_790_000_500_000,
      fromRef: { id: `refs/heads/feature-${id}`, displayId: `feature-${id}`, latestCommit: 'a1b2c3d4', repository: { slug: 'api', project: { key: 'PLAT' } } },
      toRef: { id: 'refs/heads/main', displayId: 'main', latestCommit: 'e5f6a7b8', repository: { slug: 'api', project: { key: 'PLAT' } } },
      author: { user: { name: 'jdoe', displayName: 'Jane Doe' }, role: 'AUTHOR', approved: false, status: 'UNAPPROVED' },
      links: { self: [{ href: `https://bitbucket.acme.internal/projects/PLAT/repos/api/pull-requests/${id}` }] },
    });

    it("lists pull requests through Data Center's own API, paged by nextPageStart", async () => {
      t.mock.on('GET', REPO, (request) =>
        request.query.get('start') === '25'
          ? { body: { size: 1, limit: 25, isLastPage: true, start: 25, values: [pullRequest(26)] } }
          : { body: { size: 25, limit: 25, isLastPage: false, start: 0, nextPageStart: 25, values: [pullRequest(1)] } },
      );
      const first = await t.call('bb_list_pull_requests', { workspace: 'PLAT', repoSlug: 'api', state: 'OPEN' });
      expect(first.isError, textOf(first)).to.equal(undefined);
      expect((first.structuredContent as { nextCursor: string }).nextCursor).to.equal('25');
      const second = await t.call('bb_list_pull_requests', { workspace: 'PLAT', repoSlug: 'api', state: 'OPEN', cursor: '25' });
      expect((second.structuredContent as { nextCursor: unknown }).nextCursor).to.equal(null);
      expect(t.mock.requests.map((r) => r.url)).to.deep.equal([`${REPO}?state=OPEN`, `${REPO}?state=OPEN&start=25`]);
    });

    it('comments on a pull request, inline on a line, as Data Center takes a comment', async () => {
      t.mock.on('POST', `${REPO}/7/comments`, { status: 201, body: { id: 4711, version: 0, text: 'Flaky here.', createdDate: 1_790_000_900_000 } });
      const result = await t.call('bb_add_pull_request_comment', {
        workspace: 'PLAT',
        repoSlug: 'api',
        pullRequestId: 7,
        body: 'Flaky here.',
        path: 'src/a.ts',
        line: 12,
      });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({
        text: 'Flaky here.',
        anchor: { path: 'src/a.ts', diffType: 'EFFECTIVE', line: 12, lineType: 'ADDED', fileType: 'TO' },
      });
      expect(data(result)).to.deep.include({ id: 4711, pullRequestId: 7, inline: { path: 'src/a.ts', to: 12 } });
    });

    it('refuses the Pipelines tools before any request, with a sentence naming what to use', async () => {
      for (const [tool, args] of [
        ['bb_run_pipeline', { workspace: 'PLAT', repoSlug: 'api', branch: 'main' }],
        ['bb_list_pipelines', { workspace: 'PLAT', repoSlug: 'api' }],
        ['bb_get_pipeline_step_log', { workspace: 'PLAT', repoSlug: 'api', pipelineUuid: '{3f1c6d2e-0b4a-4c5e-9d8f-1a2b3c4d5e6f}' }],
      ] as const) {
        const result = await t.call(tool, args);
        expect(result.isError, tool).to.equal(true);
        expect(textOf(result), tool).to.contain('only Bitbucket Cloud has');
        expect(textOf(result), tool).to.contain('Nothing was sent');
      }
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('Bitbucket Cloud', () => {
    const t = useServer((url) => ({ BITBUCKET_BASE_URL: url, BITBUCKET_ACCESS_TOKEN: 'BBCLOUD-referenceFixes0123456789' }));

    it('bb_upload takes repoSlug, as every other Bitbucket tool does, and refuses repo naming it', async () => {
      t.mock.on('GET', '/2.0/repositories/acme/api/downloads', { body: { values: [], pagelen: 100 } });
      t.mock.on('POST', '/2.0/repositories/acme/api/downloads', { status: 201 });
      const files = [{ name: 'report.txt', content: Buffer.from('all green\n').toString('base64') }];
      const result = await t.call('bb_upload', { workspace: 'acme', repoSlug: 'api', files });
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(t.mock.requests.map((r) => `${r.method} ${r.path}`)).to.include('POST /2.0/repositories/acme/api/downloads');
      const old = await t.call('bb_upload', { workspace: 'acme', repo: 'api', files });
      expect(old.isError).to.equal(true);
      expect(textOf(old)).to.contain('repoSlug');
    });
  });
});
