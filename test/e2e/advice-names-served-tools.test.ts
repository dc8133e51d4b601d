import { expect } from 'chai';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { serveAttachment } from '../fixtures/atlassian/jira-attachments.js';
import { bitbucketJson } from '../fixtures/bitbucket/bitbucket-api.js';
import { circleciFixture, pipelines, tokenPagedReply } from '../fixtures/circleci/circleci-api.js';
import { githubFixture } from '../fixtures/github/github-api.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';
import { ACCOUNT } from '../plugins/atlassian/atlassian-calls.js';

// Issue 53, item 6: a new user starts the server with the default tools, and the tools' descriptions and their
// advice (a diff too large, more jobs than shown, an attachment that is not an image) must only send the model to
// tools it is served, or say which toolset serves the one they name. Official SDK client, dist/cli.js over stdio,
// every vendor a wire-format mock.

const BITBUCKET = { ATLASSIAN_BITBUCKET_USERNAME: 'mia-k', ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-ATBB-advice-5d1e' };
const PR = '/repos/octo-org/octo-repo/pulls/1347';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const PIPELINE = '{4d2e9a71-0c3b-4f5e-8a6d-1b7c9e2f3a4d}';
const STEPS = `/2.0/repositories/acme/checkout-service/pipelines/${encodeURIComponent(PIPELINE)}/steps`;
/** The tools no toolset selection lists: the toolset tools (--dynamic-toolsets) and code mode's. */
const UNLISTED = ['list_toolsets', 'get_toolset_tools', 'enable_toolset', 'search_tools', 'execute'];

const textOf = (r: CallToolResult): string => (r.content[0] as { text: string }).text;
const names = (tools: Tool[]): string[] => tools.map((t) => t.name);

/** The registered tools a text names that `served` does not hold. */
function unservedNamed(text: string, every: readonly string[], served: readonly string[]): string[] {
  return every.filter((name) => !served.includes(name) && new RegExp(`(?<![a-z_])${name}(?![a-z_])`).test(text));
}

describe('advice names only tools the caller is served (default tools, dist/cli.js over stdio)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let circleci: MockUpstream;
  let jira: MockUpstream;
  let media: MockUpstream;
  let bitbucket: MockUpstream;
  let every: string[];

  const env = (): Record<string, string> => ({
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: 'ghp_adviceTestToken0123',
    CIRCLECI_BASE_URL: circleci.url,
    CIRCLECI_TOKEN: 'circle-adviceTestToken0123',
    ...ACCOUNT,
    JIRA_BASE_URL: jira.url,
    ...BITBUCKET,
    BITBUCKET_BASE_URL: bitbucket.url,
    MCP_EGRESS_ALLOW: new URL(media.url).host,
  });

  before(async () => {
    [github, circleci, jira, media, bitbucket] = await Promise.all([1, 2, 3, 4, 5].map(() => MockUpstream.start()));
    github.on('GET', PR, (req) =>
      req.headers.accept === 'application/vnd.github.diff'
        ? { status: 406, body: { message: 'Sorry, the diff exceeded the maximum number of files (300).', status: '406' } }
        : { body: githubFixture('pull-request.json') },
    );
    const latest = pipelines(1)[0]!;
    const workflow = { ...circleciFixture<Record<string, unknown>>('workflow.json'), id: 'fda08377-fe7e-46b1-8992-000000000000' };
    const job = circleciFixture<{ items: Array<Record<string, unknown>> }>('workflow-jobs.json').items[0]!;
    circleci.on('GET', `/api/v2/project/${SLUG}/pipeline`, { body: { items: [latest], next_page_token: null } });
    circleci.on('GET', `/api/v2/pipeline/${String(latest.id)}/workflow`, { body: { items: [workflow], next_page_token: null } });
    circleci.on('GET', '/api/v2/workflow/:id/job', (req) =>
      tokenPagedReply(
        req,
        Array.from({ length: 70 }, (_, i) => ({ ...job, job_number: i + 1 })),
      ),
    );
    serveAttachment(jira, media, '10002', { filename: 'build.log', mimeType: 'text/plain' }, Buffer.from('log\n'));
    bitbucket.on('GET', STEPS, { body: bitbucketJson('pipeline-steps.json') });
    bitbucket.on('GET', `${STEPS}/:step/log`, { headers: { 'content-type': 'text/plain' }, body: 'line 1\nline 2\n' });
    const all = await connectStdio({ env: { ...env(), MCP_TOOLSETS: 'all' } });
    try {
      every = [...names((await all.client.listTools()).tools), ...UNLISTED];
    } finally {
      await all.close();
    }
  });
  after(async () => {
    for (const mock of [github, circleci, jira, media, bitbucket]) await mock?.close();
  });

  /** The calls whose results send the model to another tool, and the toolset that serves the tool they name. */
  const ADVICE: Array<{ tool: string; args: Record<string, unknown>; names: string; toolset: string }> = [
    { tool: 'github_get_pull_request_diff', args: { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 }, names: 'github_get', toolset: 'github.repos' },
    { tool: 'circleci_pipeline_status', args: { projectSlug: SLUG, branch: 'main', outputFormat: 'json' }, names: 'circleci_get', toolset: 'circleci.rest' },
    { tool: 'jira_get_attachment', args: { attachmentId: '10002' }, names: 'jira_get', toolset: 'jira.rest' },
    {
      tool: 'bb_get_pipeline_step_log',
      args: { workspace: 'acme', repoSlug: 'checkout-service', pipelineUuid: PIPELINE },
      names: 'bb_get',
      toolset: 'bitbucket.repos',
    },
  ];

  describe('with no selection (MCP_TOOLSETS=default)', () => {
    let session: StdioSession;
    let served: string[];
    before(async () => {
      session = await connectStdio({ env: { ...env(), MCP_TOOLSETS: 'default' } });
      served = names((await session.client.listTools()).tools);
    });
    after(() => session?.close());

    it('serves none of the tools the advice below names, so the test means something', () => {
      expect(served).to.include.members(ADVICE.map((a) => a.tool));
      expect(served).not.to.include.members(ADVICE.map((a) => a.names));
    });

    it('names no tool it does not serve in any tool description or schema', async () => {
      const { tools } = await session.client.listTools();
      const named = tools.map((t) => [t.name, unservedNamed(JSON.stringify(t), every, served)] as const).filter(([, n]) => n.length > 0);
      expect(named).to.deep.equal([]);
    });

    for (const { tool, args, names: advised, toolset } of ADVICE) {
      it(`${tool}: its advice names ${advised} with the toolset that serves it (${toolset})`, async () => {
        // A JSON result holds the advice as a string: read it unescaped.
        const text = textOf(await session.client.callTool({ name: tool, arguments: args })).replaceAll('\\"', '"');
        expect(text).to.contain(`${advised} (not served here: the operator serves it by adding "${toolset}" to --toolsets, MCP_TOOLSETS)`);
        // Every unserved tool the text names is named with what would serve it.
        for (const name of unservedNamed(text, every, served)) expect(text, name).to.match(new RegExp(`${name} \\(not served here: `));
      });
    }
  });

  it('under --dynamic-toolsets says which toolset to enable, then names the tool bare once it is enabled', async () => {
    const session = await connectStdio({ env: env(), args: ['--dynamic-toolsets'] });
    try {
      const diff = { name: 'github_get_pull_request_diff', arguments: { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 } };
      await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'github.pull_requests' } });
      expect(textOf(await session.client.callTool(diff))).to.contain(
        'with github_get (not served to you yet: call enable_toolset with toolset "github.repos" first) on',
      );
      await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'github.repos' } });
      expect(textOf(await session.client.callTool(diff))).to.contain(`with github_get on "${PR}/files"`);
    } finally {
      await session.close();
    }
  });

  it('with every tool served, names the tools bare as before', async () => {
    const session = await connectStdio({ env: { ...env(), MCP_TOOLSETS: 'all' } });
    try {
      const text = textOf(await session.client.callTool({ name: 'jira_get_attachment', arguments: { attachmentId: '10002' } }));
      expect(text).to.contain('Read its metadata with jira_get on "/rest/api/3/attachment/10002".');
    } finally {
      await session.close();
    }
  });
});
