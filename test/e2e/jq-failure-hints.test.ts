import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { workflowRuns } from '../fixtures/github/github-api.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';
import { ACCOUNT } from '../plugins/atlassian/atlassian-calls.js';

// Issue 53, item 6: a mistyped jq used to answer with the whole payload beside the error (up to the 40,000
// characters the model reads). It now answers with the error, the nearest key paths of the answer and its
// top-level keys; the Atlassian passthroughs keep the reference servers' {_jqError, _originalData}
// (../shared/spec/atlassian-reference.md). Official SDK client, dist/cli.js over stdio, wire-format mocks.

const RUNS = '/repos/octo-org/octo-repo/actions/runs';
const LIST = { owner: 'octo-org', repo: 'octo-repo', perPage: 100, outputFormat: 'json' };

const textOf = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

describe('a jq that fails: the error and where to look, not the data (dist/cli.js over stdio)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let jira: MockUpstream;
  let session: StdioSession;
  const runs = workflowRuns(100);

  before(async () => {
    [github, jira] = await Promise.all([MockUpstream.start(), MockUpstream.start()]);
    github.on('GET', RUNS, { body: { total_count: runs.length, workflow_runs: runs } });
    jira.on('GET', '/rest/api/3/myself', { body: { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'Mia Krystof', active: true } });
    session = await connectStdio({
      env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghp_jqHintsTestToken0123', ...ACCOUNT, JIRA_BASE_URL: jira.url, MCP_STRUCTURED_OUTPUT: 'true' },
    });
  });
  after(async () => {
    await session?.close();
    for (const mock of [github, jira]) await mock?.close();
  });

  it('answers a syntax error with the nearest paths and the top-level keys, in a few hundred characters', async () => {
    const whole = textOf(await session.client.callTool({ name: 'github_list_workflow_runs', arguments: LIST }));
    const result = await session.client.callTool({
      name: 'github_list_workflow_runs',
      arguments: { ...LIST, jq: 'workflow_runs[*].{id: id, conclusion: conclusin' },
    });
    expect(result.isError ?? false).to.equal(false);
    const text = textOf(result);
    const { data } = JSON.parse(text) as { data: { _jqError: string; reason: string; nearestPaths: string[]; topLevelKeys: string[] } };
    expect(Object.keys(data)).to.deep.equal(['_jqError', 'reason', 'nearestPaths', 'topLevelKeys']);
    expect(data._jqError).to.equal('Invalid JMESPath expression: workflow_runs[*].{id: id, conclusion: conclusin');
    expect(data.reason).to.be.a('string').and.not.equal('');
    expect(data.nearestPaths).to.have.length(5);
    expect(data.nearestPaths).to.include('workflow_runs[*].conclusion');
    expect(data.topLevelKeys).to.deep.equal(['total_count', 'workflow_runs']);
    expect(text).not.to.contain('_originalData');
    expect(text).not.to.contain(String(runs[0]!.head_sha));
    expect(whole.length, 'the answer the old result repeated').to.be.above(30_000);
    expect(text.length).to.be.below(1_000);
    expect(result.structuredContent).to.deep.equal(JSON.parse(text));
  });

  it('answers a runtime error the same way, the library naming what went wrong', async () => {
    const result = await session.client.callTool({ name: 'github_list_workflow_runs', arguments: { ...LIST, jq: 'abs(workflow_runs)' } });
    const { data } = JSON.parse(textOf(result)) as { data: { reason: string; nearestPaths: string[] } };
    expect(data.reason).to.match(/abs/);
    expect(data.nearestPaths[0]).to.equal('workflow_runs');
  });

  it("keeps the reference servers' {_jqError, _originalData} on the Atlassian passthroughs (jira_get)", async () => {
    const result = await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/myself', jq: 'displayName[', outputFormat: 'json' } });
    expect(JSON.parse(textOf(result))).to.deep.equal({
      _jqError: 'Invalid JMESPath expression: displayName[',
      _originalData: { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'Mia Krystof', active: true },
    });
  });
});
