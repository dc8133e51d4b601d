// Serving a subset of the tools, as github-mcp-server users know it: --toolsets (plugin names), --tools (exact
// tools), --read-only, and the same as settings; `tools` lists what a server would serve.
import { expect } from 'chai';
import { runCli } from '../support/run-cli.js';
import { connectStdio } from '../support/sdk-client.js';

interface Row {
  name: string;
  title: string;
  access: 'read' | 'write';
  plugin: string;
}

async function served(args: string[], env: Record<string, string> = {}): Promise<Row[]> {
  const ran = await runCli(['tools', '--json', ...args], { env });
  expect(ran.code, ran.stderr).to.equal(0);
  return JSON.parse(ran.stdout) as Row[];
}

const names = (rows: readonly Row[]): string[] => rows.map((r) => r.name).sort();

describe('toolsets: which tools a server serves', () => {
  it('tools --json lists every tool with its title, read or write, and plugin', async () => {
    const rows = await served([]);
    expect(rows).to.have.length(46);
    expect(rows.find((r) => r.name === 'jira_post')).to.deep.equal({ name: 'jira_post', title: 'Jira POST Request', access: 'write', plugin: 'jira' });
    expect(rows.find((r) => r.name === 'artifact_read')).to.deep.include({ access: 'read', plugin: 'artifacts' });
  });

  it('tools prints a table of the same', async () => {
    const ran = await runCli(['tools', '--toolsets', 'circleci']);
    expect(ran.code).to.equal(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^NAME\s+ACCESS\s+PLUGIN\s+TITLE$/);
    // circleci_logs saves whole step outputs as artifacts: their reader is served with the toolset.
    expect(lines[1]).to.match(/^artifact_read\s+read\s+artifacts\s+/);
    expect(lines[2]).to.match(/^circleci_get\s+read\s+circleci\s+CircleCI API GET$/);
    expect(lines.at(-1)).to.equal('12 tools (6 that write) from 2 plugins.');
  });

  it("--toolsets serves the named plugins' tools, with artifact_read since GitHub's job logs spill", async () => {
    const rows = await served(['--toolsets', 'github,jira']);
    expect(names(rows)).to.deep.equal([
      'artifact_read',
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
      'jira_add_comment',
      'jira_create_issue',
      'jira_delete',
      'jira_get',
      'jira_get_attachment',
      'jira_get_issue',
      'jira_patch',
      'jira_post',
      'jira_put',
      'jira_search',
      'jira_transition_issue',
      'jira_update_issue',
    ]);
  });

  it('--tools serves exactly those tools, and artifact_read only while one of them can spill', async () => {
    // circleci_logs saves artifacts and circleci_get does not: the reader comes with the one that saves.
    expect(names(await served(['--tools', 'jira_get,circleci_get']))).to.deep.equal(['circleci_get', 'jira_get']);
    expect(names(await served(['--tools', 'jira_get,circleci_logs']))).to.deep.equal(['artifact_read', 'circleci_logs', 'jira_get']);
    // With structured output on, an oversized jira_get value is saved as an artifact: its reader comes along.
    expect(names(await served(['--tools', 'jira_get'], { MCP_STRUCTURED_OUTPUT: 'true' }))).to.deep.equal(['artifact_read', 'jira_get']);
  });

  it('--read-only hides every tool that can change something, within the toolsets', async () => {
    const rows = await served(['--toolsets', 'jira,circleci', '--read-only']);
    expect(names(rows)).to.deep.equal(['artifact_read', 'circleci_get', 'circleci_logs', 'jira_get', 'jira_get_attachment', 'jira_get_issue', 'jira_search']);
    expect(names(await served(['--toolsets', 'jira', '--read-only']))).to.deep.equal(['jira_get', 'jira_get_attachment', 'jira_get_issue', 'jira_search']);
    expect(names(rows)).to.deep.equal([
      'artifact_read',
      'circleci_flaky_tests',
      'circleci_get',
      'circleci_job_tests',
      'circleci_logs',
      'circleci_pipeline_status',
      'jira_get',
      'jira_get_attachment',
    ]);
    expect(names(await served(['--toolsets', 'jira', '--read-only']))).to.deep.equal(['jira_get', 'jira_get_attachment']);
  });

  it('MCP_TOOLSETS and MCP_TOOLS do the same as settings, and add up', async () => {
    const rows = await served([], { MCP_TOOLSETS: 'circleci', MCP_TOOLS: 'bb_get' });
    expect(names(rows)).to.deep.equal([
      'artifact_read',
      'bb_get',
      'circleci_delete',
      'circleci_flaky_tests',
      'circleci_get',
      'circleci_job_tests',
      'circleci_logs',
      'circleci_patch',
      'circleci_pipeline_status',
      'circleci_post',
      'circleci_put',
      'circleci_rerun_workflow',
      'circleci_trigger_pipeline',
    ]);
    // bb_upload reads artifacts others saved and saves none: Bitbucket's tools bring no reader.
    expect(names(await served([], { MCP_TOOLS: 'bb_get,bb_upload' }))).to.deep.equal(['bb_get', 'bb_upload']);
  });

  it('a server serves what tools lists, and answers a hidden tool with the setting that hides it', async () => {
    const expected = names(await served(['--toolsets', 'confluence', '--read-only']));
    const session = await connectStdio({ args: ['--toolsets', 'confluence', '--read-only'] });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal(expected);
      let message = '';
      await session.client.callTool({ name: 'conf_post', arguments: { path: '/wiki/api/v2/pages', body: {} } }).catch((e: Error) => (message = e.message));
      expect(message).to.contain('Unknown tool: conf_post: this server has it, but MCP_READ_ONLY=true hides it (it can change things).');
      await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/myself' } }).catch((e: Error) => (message = e.message));
      expect(message).to.contain('Unknown tool: jira_get: this server has it, but MCP_TOOLSETS=confluence does not include its plugin "jira".');
    } finally {
      await session.close();
    }
  });

  it('a toolset or tool that does not exist fails start-up with the nearest names', async () => {
    const toolset = await runCli(['tools', '--toolsets', 'gthub']);
    expect(toolset.code).to.equal(1);
    expect(toolset.stderr).to.contain(
      'mcp-devtools: MCP_TOOLSETS (--toolsets) names "gthub", which is not a loaded plugin with tools. Did you mean "github"? Toolsets: all, artifacts, github, circleci, jira, confluence, bitbucket.',
    );
    const tool = await runCli(['--tools', 'jira_gte']);
    expect(tool.code).to.equal(1);
    // The server's reason for not starting is its last line, a plain sentence (after the same as a fatal log line).
    expect(tool.stderr.trim().split('\n').at(-1)).to.equal(
      'mcp-devtools: MCP_TOOLS (--tools) names "jira_gte", which no loaded plugin provides. Did you mean "jira_get"? `mcp-devtools tools` lists the tools.',
    );
  });
});
