// Serving a subset of the tools, as github-mcp-server users know it: toolsets finer than vendors (--toolsets
// github.actions,jira), a vendor's name for all of it, "all", the default toolsets when nothing is chosen,
// --tools, --exclude-tools, --read-only, and --dynamic-toolsets; `tools` lists what a server would serve.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { connectStdio, isolatedEnv } from '../support/sdk-client.js';

interface Row {
  name: string;
  title: string;
  access: 'read' | 'write';
  plugin: string;
  toolset: string;
}

/** Credentials of every vendor: with nothing chosen, a vendor's default toolsets are served only when it has them. */
const EVERY_VENDOR = {
  GITHUB_TOKEN: 'ghp_toolsetsTestToken0123',
  CIRCLECI_TOKEN: 'circle-toolsetsTestToken0123',
  ATLASSIAN_SITE_NAME: 'acme',
  ATLASSIAN_USER_EMAIL: 'mia.krystof@acme.example',
  ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-toolsets-token-7f3a',
  ATLASSIAN_BITBUCKET_USERNAME: 'mia-k',
  ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-ATBB-toolsets-5d1e',
};

/** `tools --json` of a server started with `args` (and `env`); nothing chosen means the default toolsets (every vendor configured). */
async function served(args: string[], env: Record<string, string> = {}): Promise<Row[]> {
  const ran = await runCli(['tools', '--json', ...args], {
    env: Object.keys(env).length > 0 || args.length > 0 ? env : { MCP_TOOLSETS: '', ...EVERY_VENDOR },
  });
  expect(ran.code, ran.stderr).to.equal(0);
  return JSON.parse(ran.stdout) as Row[];
}

const names = (rows: readonly Row[]): string[] => rows.map((r) => r.name).sort();
/** A vault key (32 bytes, base64): linked accounts need the vault. */
const VAULT_KEY = Buffer.alloc(32, 7).toString('base64');
const toolsets = (rows: readonly Row[]): string[] => [...new Set(rows.map((r) => r.toolset))].sort();

/** The default toolsets: the typed tools for the common jobs, never the REST passthroughs. */
const DEFAULT_TOOLSETS = [
  'artifacts',
  'bitbucket.pipelines',
  'bitbucket.pull_requests',
  'ci',
  'circleci.pipelines',
  'confluence.pages',
  'github.actions',
  'github.issues',
  'github.pull_requests',
  'jira.issues',
];

describe('toolsets: which tools a server serves', () => {
  it('serves the default toolsets when nothing is chosen: the typed tools, no passthrough', async () => {
    const rows = await served([]);
    expect(toolsets(rows)).to.deep.equal(DEFAULT_TOOLSETS);
    expect(names(rows)).to.include.members([
      'github_rerun_workflow',
      'jira_transition_issue',
      'conf_update_page',
      'bb_run_pipeline',
      'circleci_pipeline_status',
    ]);
    expect(names(rows).filter((n) => /^(jira|conf|bb|circleci|github)_(get|post|put|patch|delete)$/.test(n))).to.deep.equal([]);
    expect(rows.find((r) => r.name === 'jira_create_issue')).to.deep.equal({
      name: 'jira_create_issue',
      title: rows.find((r) => r.name === 'jira_create_issue')!.title,
      access: 'write',
      plugin: 'jira',
      toolset: 'jira.issues',
    });
  });

  it("with only GITHUB_TOKEN and nothing chosen, serves GitHub's default tools, not the vendors that could only fail, and says why once", async () => {
    const session = await connectStdio({ env: { MCP_TOOLSETS: '', GITHUB_TOKEN: 'ghp_toolsetsTestToken0123' } });
    try {
      const listed = (await session.client.listTools()).tools.map((t) => t.name);
      // ci_failure_report and ci_wait ask GitHub too: served with it.
      expect(listed.filter((n) => !n.startsWith('github_') && n !== 'artifact_read')).to.deep.equal(['ci_failure_report', 'ci_wait']);
      expect(listed).to.include.members(['github_list_workflow_runs', 'github_get_pull_request_diff', 'github_create_issue']);
      const line = JSON.parse(await session.waitForStderr('default tools:')) as { msg: string; served: string[]; notServed: Record<string, string> };
      expect(line.served).to.deep.equal(['github', 'ci']);
      expect(line.notServed).to.deep.equal({
        circleci: 'no credentials configured',
        jira: 'no credentials configured',
        confluence: 'no credentials configured',
        bitbucket: 'no credentials configured',
      });
      expect(line.msg).to.contain('name it in --toolsets (MCP_TOOLSETS)');
      expect(session.stderr.filter((l) => l.includes('default tools:'))).to.have.length(1);
      // A call to a left-out tool says why, and what serves it.
      const refused = await session.client.callTool({ name: 'jira_search', arguments: { jql: 'project = PLAT' } }).catch((e: Error) => e);
      expect(String(refused instanceof Error ? refused.message : JSON.stringify(refused.content))).to.contain(
        'the jira plugin has no credentials configured, so the default tools leave it out (configure them, or --toolsets jira serves it)',
      );
    } finally {
      await session.close();
    }
  });

  it('serves a vendor that acts with linked accounts (<VENDOR>_CREDENTIALS=user) with no service credential, and one named explicitly', async () => {
    const linked = await served([], { MCP_TOOLSETS: '', GITHUB_TOKEN: 'ghp_toolsetsTestToken0123', CIRCLECI_CREDENTIALS: 'user', MCP_VAULT_KEY: VAULT_KEY });
    expect(toolsets(linked)).to.deep.equal(['artifacts', 'ci', 'circleci.pipelines', 'github.actions', 'github.issues', 'github.pull_requests']);
    const named = await served(['--toolsets', 'default'], { GITHUB_TOKEN: 'ghp_toolsetsTestToken0123' });
    expect(toolsets(named)).to.deep.equal(DEFAULT_TOOLSETS);
    expect(toolsets(await served(['--toolsets', 'github,jira.issues'], { GITHUB_TOKEN: 'ghp_toolsetsTestToken0123' }))).to.include('jira.issues');
  });

  it('leaves out ci_failure_report and ci_wait when no CI vendor (GitHub, CircleCI, Bitbucket) has credentials, and says so', async () => {
    const session = await connectStdio({
      // Jira Data Center with a personal access token: an Atlassian account's e-mail and API token would reach Bitbucket Cloud too.
      env: { MCP_TOOLSETS: '', JIRA_BASE_URL: 'https://jira.acme.example', JIRA_PERSONAL_TOKEN: 'jira-dc-toolsets-test-token' },
    });
    try {
      const listed = (await session.client.listTools()).tools.map((t) => t.name);
      expect(listed).to.include('jira_search');
      expect(listed.filter((n) => n.startsWith('ci_'))).to.deep.equal([]);
      const line = JSON.parse(await session.waitForStderr('default tools:')) as { served: string[]; notServed: Record<string, string> };
      expect(line.notServed).to.include({ ci: 'no credentials configured' });
      expect(line.served).to.not.include('ci');
    } finally {
      await session.close();
    }
  });

  it('serves every tool with --toolsets all, and all of a vendor by its name', async () => {
    const all = await served(['--toolsets', 'all']);
    expect(all.length).to.be.above(60);
    expect(names(all)).to.include.members(['jira_get', 'jira_post', 'bb_upload', 'circleci_delete', 'github_get']);
    const jira = await served(['--toolsets', 'jira']);
    expect(toolsets(jira)).to.deep.equal(['jira.issues', 'jira.rest']);
    expect(names(jira)).to.include.members(['jira_search', 'jira_get', 'jira_delete']);
  });

  it('serves one toolset by its name, with artifact_read while one of its tools can save an artifact', async () => {
    expect(names(await served(['--toolsets', 'jira.rest']))).to.deep.equal(['jira_delete', 'jira_get', 'jira_patch', 'jira_post', 'jira_put']);
    const actions = await served(['--toolsets', 'github.actions']);
    expect(toolsets(actions)).to.deep.equal(['artifacts', 'github.actions']);
    expect(names(actions)).to.include('github_get_job_logs').and.include('artifact_read');
  });

  it('tools prints a table with each tool toolset', async () => {
    const ran = await runCli(['tools', '--toolsets', 'jira.rest']);
    expect(ran.code).to.equal(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^NAME\s+ACCESS\s+TOOLSET\s+TITLE$/);
    expect(lines[1]).to.match(/^jira_get\s+read\s+jira\.rest\s+Jira GET Request$/);
    expect(lines.at(-1)).to.equal('5 tools (4 that write) in 1 toolset.');
  });

  it('--tools adds tools by name, --exclude-tools takes them away whatever chose them', async () => {
    expect(names(await served(['--toolsets', 'jira.rest', '--tools', 'bb_get']))).to.deep.equal([
      'bb_get',
      'jira_delete',
      'jira_get',
      'jira_patch',
      'jira_post',
      'jira_put',
    ]);
    const without = await served(['--exclude-tools', 'github_merge_pull_request,jira_transition_issue']);
    expect(names(without)).to.not.include('github_merge_pull_request').and.not.include('jira_transition_issue');
    expect(names(without)).to.include('github_create_pull_request');
    expect(names(await served([], { MCP_TOOLSETS: 'jira.rest', MCP_EXCLUDE_TOOLS: 'jira_delete' }))).to.deep.equal([
      'jira_get',
      'jira_patch',
      'jira_post',
      'jira_put',
    ]);
  });

  it('--read-only hides every tool that can change something, within the toolsets', async () => {
    expect(names(await served(['--toolsets', 'jira', '--read-only']))).to.deep.equal(['jira_get', 'jira_get_attachment', 'jira_get_issue', 'jira_search']);
  });

  it('a server serves what tools lists, and answers a hidden tool with what hides it and what would serve it', async () => {
    const expected = names(await served(['--toolsets', 'confluence', '--read-only']));
    const session = await connectStdio({ args: ['--toolsets', 'confluence', '--read-only'] });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal(expected);
      let message = '';
      await session.client.callTool({ name: 'conf_post', arguments: { path: '/wiki/api/v2/pages', body: {} } }).catch((e: Error) => (message = e.message));
      expect(message).to.contain('Unknown tool: conf_post: this server has it, but MCP_READ_ONLY=true hides it (it can change things).');
      await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/myself' } }).catch((e: Error) => (message = e.message));
      expect(message).to.contain('Unknown tool: jira_get: this server has it, but MCP_TOOLSETS=confluence does not include its toolset "jira.rest".');
    } finally {
      await session.close();
    }
  });

  it('a toolset or tool that does not exist fails start-up with the nearest names', async () => {
    const toolset = await runCli(['tools', '--toolsets', 'github.action']);
    expect(toolset.code).to.equal(1);
    expect(toolset.stderr).to.contain(
      'mcp-devtools: MCP_TOOLSETS (--toolsets) names "github.action", which is no toolset or plugin with tools. Did you mean "github.actions"',
    );
    const tool = await runCli(['--tools', 'jira_gte']);
    expect(tool.code).to.equal(1);
    // The server's reason for not starting is its last line, a plain sentence (after the same as a fatal log line).
    expect(tool.stderr.trim().split('\n').at(-1)).to.equal(
      'mcp-devtools: MCP_TOOLS (--tools) names "jira_gte", which no loaded plugin provides. Did you mean "jira_get"? `mcp-devtools tools` lists the tools.',
    );
    const excluded = await runCli(['tools', '--exclude-tools', 'jira_gte']);
    expect(excluded.code).to.equal(1);
    expect(excluded.stderr).to.contain('MCP_EXCLUDE_TOOLS (--exclude-tools) names "jira_gte", which no loaded plugin provides. Did you mean "jira_get"?');
  });
});

describe('dynamic toolsets (--dynamic-toolsets, over stdio with the SDK client)', () => {
  it('starts with the three toolset tools, lists and enables toolsets, and tells a 2025-era client its tool list changed', async () => {
    let changed = 0;
    const session = await connectStdio({ args: ['--dynamic-toolsets'], versionNegotiation: { mode: 'legacy' } });
    try {
      session.client.setNotificationHandler('notifications/tools/list_changed', () => {
        changed++;
      });
      expect(session.client.getServerCapabilities()?.tools?.listChanged).to.equal(true);
      const first = await session.client.listTools();
      expect(first.tools.map((t) => t.name).sort()).to.deep.equal(['enable_toolset', 'get_toolset_tools', 'list_toolsets']);

      const listed = await session.client.callTool({ name: 'list_toolsets', arguments: {} });
      const text = (listed.content as Array<{ text: string }>)[0]!.text;
      expect(text).to.include('github.actions').and.include('jira.rest').and.not.include('toolsets,');

      const tools = await session.client.callTool({ name: 'get_toolset_tools', arguments: { toolset: 'jira.rest' } });
      expect((tools.content as Array<{ text: string }>)[0]!.text)
        .to.include('jira_get')
        .and.include('jira_delete');

      const unknown = await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'jira.rst' } });
      expect(unknown.isError).to.equal(true);
      expect((unknown.content as Array<{ text: string }>)[0]!.text).to.include('There is no toolset "jira.rst" on this server. Toolsets:');

      let message = '';
      await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/myself' } }).catch((e: Error) => (message = e.message));
      expect(message).to.contain('enable_toolset "jira.rest" serves it');

      const enabled = await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'jira.rest' } });
      expect(enabled.isError ?? false).to.equal(false);
      await until(() => changed > 0);
      expect(changed).to.equal(1);
      const after = await session.client.listTools();
      expect(after.tools.map((t) => t.name)).to.include.members(['jira_get', 'jira_post', 'jira_delete', 'enable_toolset']);
      expect(after.tools).to.have.length(8);

      // Enabling it again serves nothing new: no announcement.
      await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'jira.rest' } });
      await new Promise((r) => setTimeout(r, 100));
      expect(changed).to.equal(1);
    } finally {
      await session.close();
    }
  });

  it('enable_toolset takes a plugin name as --toolsets does (every toolset of it), and names the choices otherwise', async () => {
    const session = await connectStdio({ args: ['--dynamic-toolsets'] });
    try {
      const enabled = await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'jira' } });
      expect(enabled.isError ?? false, JSON.stringify(enabled.content)).to.equal(false);
      const after = (await session.client.listTools()).tools.map((t) => t.name);
      expect(after).to.include.members(['jira_get', 'jira_delete', 'jira_search', 'jira_create_issue']);
      expect(after.filter((name) => name.startsWith('conf_') || name.startsWith('github_'))).to.deep.equal([]);
      const tools = await session.client.callTool({ name: 'get_toolset_tools', arguments: { toolset: 'circleci' } });
      expect((tools.content as Array<{ text: string }>)[0]!.text)
        .to.include('circleci_get')
        .and.include('circleci_trigger_pipeline');
    } finally {
      await session.close();
    }
  });

  it('tells a 2026-07-28 client on its subscriptions/listen stream', async () => {
    let changed = 0;
    const client = new Client(
      { name: 'dynamic-toolsets-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, listChanged: { tools: { onChanged: () => changed++, autoRefresh: false, debounceMs: 0 } } },
    );
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-dynamic-'));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, '--dynamic-toolsets'], env: isolatedEnv({}, cwd), cwd, stderr: 'ignore' }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
      await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'github.actions' } });
      await until(() => changed > 0);
      expect(changed).to.equal(1);
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('github_rerun_workflow');
    } finally {
      await client.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('enable_toolset never brings back a tool --exclude-tools or --read-only hides: not listed, and refused by name', async () => {
    const session = await connectStdio({ args: ['--dynamic-toolsets', '--read-only', '--exclude-tools', 'jira_get_attachment'] });
    try {
      const enabled = await session.client.callTool({ name: 'enable_toolset', arguments: { toolset: 'jira.issues' } });
      expect(enabled.isError ?? false, JSON.stringify(enabled)).to.equal(false);
      const listed = (await session.client.listTools()).tools.map((t) => t.name).sort();
      expect(listed).to.deep.equal(['enable_toolset', 'get_toolset_tools', 'jira_get_issue', 'jira_search', 'list_toolsets']);
      const refusals: string[] = [];
      for (const [name, args] of [
        ['jira_get_attachment', { id: '10001' }],
        ['jira_create_issue', { project: 'PLAT', summary: 'x', issueType: 'Task' }],
      ] as const) {
        await session.client.callTool({ name, arguments: args }).then(
          (r) => refusals.push(`${name} answered: ${JSON.stringify(r)}`),
          (e: Error) => refusals.push(e.message),
        );
      }
      expect(refusals[0]).to.contain('Unknown tool: jira_get_attachment: this server has it, but MCP_EXCLUDE_TOOLS (--exclude-tools) lists it');
      expect(refusals[1]).to.contain('Unknown tool: jira_create_issue: this server has it, but MCP_READ_ONLY=true hides it (it can change things)');
    } finally {
      await session.close();
    }
  });

  it('never serves the toolset tools without --dynamic-toolsets', async () => {
    const rows = await served(['--toolsets', 'all']);
    expect(names(rows)).to.not.include('enable_toolset');
  });
});

/** Waits up to two seconds for `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
}
