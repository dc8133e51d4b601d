import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { jobLog, pagedListReply, workflowRuns } from '../../fixtures/github/github-api.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';

const TOKEN = 'ghp_stdioTestToken0123456789';

// The wire path: the official SDK client spawns dist/cli.js (npm run build) and talks JSON-RPC over stdio.
// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('GitHub tools over stdio with the official SDK client', () => {
  let api: MockUpstream;
  let blob: MockUpstream;
  let session: StdioSession;

  before(async () => {
    api = await MockUpstream.start();
    blob = await MockUpstream.start();
    // Every toolset (github.repos is not served by default); the blob host mock is on loopback, where the egress
    // guard lets it through only because it is named.
    session = await connectStdio({
      env: {
        GITHUB_API_URL: api.url,
        GITHUB_TOKEN: TOKEN,
        MCP_FENCE: 'false',
        LOG_LEVEL: 'debug',
        MCP_EGRESS_ALLOW: new URL(blob.url).host,
        MCP_TOOLSETS: 'all',
      },
    });
  });
  after(async () => {
    await session.close();
    await api.close();
    await blob.close();
  });

  it('lists the twenty-three GitHub tools with titles, annotations and input schemas', async () => {
    const { tools } = await session.client.listTools();
    const github = tools.filter((t) => t.name.startsWith('github_'));
    expect(github.map((t) => t.name).sort()).to.deep.equal([
      'github_add_comment',
      'github_cancel_workflow_run',
      'github_create_issue',
      'github_create_pull_request',
      'github_create_review',
      'github_dispatch_workflow',
      'github_get',
      'github_get_file',
      'github_get_issue',
      'github_get_job_logs',
      'github_get_pull_request',
      'github_get_pull_request_diff',
      'github_graphql',
      'github_list_check_runs',
      'github_list_issues',
      'github_list_pull_requests',
      'github_list_repositories',
      'github_list_workflow_jobs',
      'github_list_workflow_runs',
      'github_merge_pull_request',
      'github_rerun_workflow',
      'github_search_issues',
      'github_update_issue',
    ]);
    for (const tool of github) {
      expect(tool.title, tool.name).to.be.a('string').and.not.equal('');
      expect(tool.description, tool.name).to.have.length.above(80);
      expect(tool.annotations, tool.name).to.deep.include({ openWorldHint: true });
      // Sent once, as the top-level title a 2025-06-18 or later client shows.
      expect(tool.annotations, tool.name).not.to.have.property('title');
    }
    const reads = github.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name);
    // github_graphql is a read: it sends queries only unless GITHUB_GRAPHQL_MUTATIONS=true.
    expect(reads).to.have.length(14);
    const runs = github.find((t) => t.name === 'github_list_workflow_runs')!;
    expect(runs.inputSchema.required).to.deep.equal(['owner', 'repo']);
    expect(Object.keys(runs.inputSchema.properties ?? {})).to.include.members([
      'workflowId',
      'branch',
      'status',
      'event',
      'actor',
      'created',
      'headSha',
      'jq',
      'outputFormat',
    ]);
  });

  it('lists runs as {data, nextPage}', async () => {
    const runs = workflowRuns(5);
    api.on('GET', '/repos/octo-org/octo-repo/actions/runs', (req) =>
      pagedListReply(req, { key: 'workflow_runs', items: runs, linkPath: '/repositories/1296269/actions/runs' }),
    );
    const result = (await session.client.callTool({
      name: 'github_list_workflow_runs',
      arguments: { owner: 'octo-org', repo: 'octo-repo', perPage: 2, jq: 'workflow_runs[*].id', outputFormat: 'json' },
    })) as CallToolResult;
    expect(JSON.parse(textOf(result))).to.deep.equal({ data: [runs[0]!.id, runs[1]!.id], nextPage: 2 });
  });

  it('reads a job log through the blob redirect, without the token at the blob host', async () => {
    api.on('GET', '/repos/octo-org/octo-repo/actions/jobs/:id/logs', { status: 302, headers: { location: `${blob.url}/logs/399444496.txt?sig=abc` } });
    blob.on('GET', '/logs/399444496.txt', { headers: { 'content-type': 'text/plain' }, body: jobLog() });
    const result = (await session.client.callTool({
      name: 'github_get_job_logs',
      arguments: { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496, tailLines: 1 },
    })) as CallToolResult;
    const text = textOf(result);
    expect(text).to.match(
      /^Log of job 399444496 of octo-org\/octo-repo: the last 1 of 68 lines\.\nThe whole log \(\d+ bytes, text\/plain\) is artifact [0-9a-f]{32}/,
    );
    expect(text.endsWith('---\n2020-01-20T17:44:39.0150081Z Cleaning up orphan processes')).to.equal(true);
    expect(blob.requests[0]!.headers.authorization).to.equal(undefined);
  });

  it('returns an upstream error as an isError result, and never logs the token', async () => {
    api.on('GET', '/repos/octo-org/octo-repo/actions/runs/1/jobs', {
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
    });
    const result = (await session.client.callTool({
      name: 'github_list_workflow_jobs',
      arguments: { owner: 'octo-org', repo: 'octo-repo', runId: 1 },
    })) as CallToolResult;
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 404');
    expect(session.stderr.length).to.be.above(0);
    expect(session.stderr.join('\n')).not.to.contain(TOKEN);
  });
});
