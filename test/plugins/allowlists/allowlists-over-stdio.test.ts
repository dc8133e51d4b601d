import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ACCOUNT } from '../atlassian/atlassian-calls.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { runCli } from '../../support/run-cli.js';
import { textOf } from '../../support/test-kernel.js';

const LISTS = {
  MCP_ALLOW_REPOS: 'acme/app, acme/docs-*',
  MCP_ALLOW_CIRCLECI_PROJECTS: 'gh/acme/*',
  MCP_ALLOW_BITBUCKET_REPOS: 'acme/*',
  MCP_ALLOW_JIRA_PROJECTS: 'PLAT',
  MCP_ALLOW_CONFLUENCE_SPACES: 'ENG',
};

/** Every vendor's client pointed at one loopback mock, which answers any GET or POST with `{}`-like JSON. */
function vendorEnv(mock: MockUpstream): Record<string, string> {
  return {
    ...ACCOUNT,
    GITHUB_API_URL: mock.url,
    GITHUB_TOKEN: 'ghp_allowlistTestToken0123456789abcdef',
    CIRCLECI_BASE_URL: mock.url,
    CIRCLECI_TOKEN: 'circle-allowlistTestToken0123',
    BITBUCKET_BASE_URL: mock.url,
    BITBUCKET_ACCESS_TOKEN: 'bb-allowlist-test-token-0123',
    JIRA_BASE_URL: mock.url,
    CONFLUENCE_BASE_URL: mock.url,
    CONFLUENCE_DEPLOYMENT: 'cloud',
  };
}

function answerEverything(mock: MockUpstream): void {
  mock.on('GET', /.*/, { body: { values: [], items: [], next_page_token: null } });
  mock.on('POST', /^\/graphql$/, { body: { data: { repository: { name: 'app' } } } });
  mock.on('GET', /^\/repos\/acme\/app\/pulls$/, { body: [] });
}

// The wire path: the official SDK client spawns dist/cli.js and talks over stdio; one loopback mock stands in
// for every vendor. A refused call must leave the mock without a single request; an allowed one reaches it.
describe('Allowlists across vendors (MCP_ALLOW_*), over stdio', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let session: StdioSession;
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  const paths = (): string[] => mock.requests.map((r) => `${r.method} ${r.path}`);

  /** The call is refused naming the setting and the value to add, and nothing reached the mock. */
  async function refused(name: string, args: Record<string, unknown>, setting: string, value?: string): Promise<string> {
    mock.requests.length = 0;
    const result = await call(name, args);
    expect(result.isError, textOf(result)).to.equal(true);
    expect(result._meta, textOf(result)).to.deep.include({ code: 'policy_denied' });
    expect(result._meta?.allowlist).to.deep.equal(value === undefined ? { setting } : { setting, value });
    expect(textOf(result)).to.contain(setting);
    if (value !== undefined) expect(textOf(result)).to.contain(`add ${value}`).and.to.contain(` to ${setting} to allow it`);
    expect(paths()).to.deep.equal([]);
    return textOf(result);
  }

  /** The call went through: the mock got the request. */
  async function allowed(name: string, args: Record<string, unknown>, sent: string): Promise<void> {
    mock.requests.length = 0;
    const result = await call(name, args);
    expect(result._meta?.code, textOf(result)).to.equal(undefined);
    expect(paths()).to.include(sent);
  }

  before(async () => {
    mock = await MockUpstream.start();
    answerEverything(mock);
    session = await connectStdio({ env: { ...vendorEnv(mock), ...LISTS } });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });

  describe('GitHub (MCP_ALLOW_REPOS)', () => {
    it('a typed tool on a listed repository runs; on another it is refused in one sentence, nothing sent', async () => {
      await allowed('github_list_pull_requests', { owner: 'acme', repo: 'app' }, 'GET /repos/acme/app/pulls');
      const text = await refused('github_list_pull_requests', { owner: 'acme', repo: 'secret' }, 'MCP_ALLOW_REPOS', 'acme/secret');
      expect(text).to.equal(
        'Error: github_list_pull_requests (GET /repos/acme/secret/pulls) names the GitHub repository acme/secret, which MCP_ALLOW_REPOS (acme/app,acme/docs-*) does not allow: add acme/secret to MCP_ALLOW_REPOS to allow it; nothing was sent.\nCode: policy_denied',
      );
    });

    it('the REST passthrough is held to the same list: globs within a part, names in any case', async () => {
      await allowed('github_get', { path: '/repos/acme/docs-site/readme' }, 'GET /repos/acme/docs-site/readme');
      await allowed('github_get', { path: '/repos/ACME/App/issues' }, 'GET /repos/ACME/App/issues');
      await refused('github_get', { path: '/repos/evil/app/readme' }, 'MCP_ALLOW_REPOS', 'evil/app');
      await allowed('github_get', { path: '/user' }, 'GET /user');
    });

    it('attacks: a glob does not cross the slash, percent-encoding, an id alias, a write', async () => {
      await refused('github_get', { path: '/repos/%61cme/secret/readme' }, 'MCP_ALLOW_REPOS', 'acme/secret');
      // Dot segments, encoded or not, are refused by the path check before the list is asked: still nothing sent.
      for (const path of ['/repos/acme/docs-x/../secret/readme', '/repos/acme/app%2F..%2F..%2Fevil%2Fx/readme']) {
        mock.requests.length = 0;
        expect((await call('github_get', { path })).isError, path).to.equal(true);
        expect(paths()).to.deep.equal([]);
      }
      const byId = await refused('github_get', { path: '/repositories/1296269/contents/README.md' }, 'MCP_ALLOW_REPOS');
      expect(byId).to.contain('repository id 1296269').and.to.contain('cannot decide');
      await refused('github_create_issue', { owner: 'acme-evil', repo: 'app', title: 'x' }, 'MCP_ALLOW_REPOS', 'acme-evil/app');
    });

    it('a search names its repositories by repo: qualifiers (one without them is not decided)', async () => {
      await refused('github_search_issues', { query: 'is:open repo:acme/app repo:evil/x' }, 'MCP_ALLOW_REPOS', 'evil/x');
      await refused('github_search_issues', { query: 'is:open (REPO:"evil/x")' }, 'MCP_ALLOW_REPOS', 'evil/x');
      await allowed('github_search_issues', { query: 'is:open repo:acme/app' }, 'GET /search/issues');
      // A negated qualifier narrows the search, and names nothing it reads.
      await allowed('github_search_issues', { query: 'repo:acme/app -repo:evil/x' }, 'GET /search/issues');
    });

    it('a same-origin redirect to a repository off the list is refused and never followed', async () => {
      mock.on('GET', /^\/repos\/acme\/app\/readme$/, { status: 301, headers: { location: `${mock.url}/repos/evil/secret/readme` } });
      mock.requests.length = 0;
      const result = await call('github_get', { path: '/repos/acme/app/readme' });
      expect(result.isError).to.equal(true);
      expect(result._meta).to.deep.include({ code: 'policy_denied' });
      expect(textOf(result)).to.contain('evil/secret').and.to.contain('MCP_ALLOW_REPOS');
      expect(paths()).to.deep.equal(['GET /repos/acme/app/readme']);
    });

    it('GraphQL: owner/name variables and inline repository(owner:, name:) arguments, aliases and comments included', async () => {
      const q = 'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { name } }';
      await allowed('github_graphql', { query: q, variables: { owner: 'acme', name: 'app' } }, 'POST /graphql');
      await refused('github_graphql', { query: q, variables: { owner: 'evil', name: 'x' } }, 'MCP_ALLOW_REPOS', 'evil/x');
      await refused('github_graphql', { query: 'query { repository(owner: "evil", name: "x") { name } }' }, 'MCP_ALLOW_REPOS', 'evil/x');
      await refused(
        'github_graphql',
        {
          query:
            'query {\n  # repository(owner: "acme", name: "app")\n  a: repository(owner: "acme", name: "app") { name }\n  b: repository(owner: "evil", name: "x") { name }\n}',
        },
        'MCP_ALLOW_REPOS',
        'evil/x',
      );
      // In a fragment, and with an owner that is not a string (undecidable: refused).
      await refused(
        'github_graphql',
        { query: 'query { ...R } fragment R on Query { repository(owner: "evil", name: "x") { name } }' },
        'MCP_ALLOW_REPOS',
        'evil/x',
      );
      await refused('github_graphql', { query: q, variables: { owner: ['acme'], name: 'app' } }, 'MCP_ALLOW_REPOS');
      const q2 = 'query($o: String!, $n: String!) { repository(owner: $o, name: $n) { name } }';
      await refused('github_graphql', { query: q2, variables: { o: 'evil', n: 'x' } }, 'MCP_ALLOW_REPOS', 'evil/x');
      await allowed('github_graphql', { query: 'query { viewer { login } }' }, 'POST /graphql');
    });
  });

  describe('CircleCI (MCP_ALLOW_CIRCLECI_PROJECTS)', () => {
    it('typed tools and the passthrough by project slug, the long VCS spelling included', async () => {
      await allowed('circleci_flaky_tests', { projectSlug: 'gh/acme/app' }, 'GET /api/v2/insights/gh/acme/app/flaky-tests');
      await refused('circleci_flaky_tests', { projectSlug: 'gh/other/app' }, 'MCP_ALLOW_CIRCLECI_PROJECTS', 'gh/other/app');
      await allowed('circleci_get', { path: '/project/github/acme/app/pipeline' }, 'GET /api/v2/project/github/acme/app/pipeline');
      await refused('circleci_get', { path: '/project/github/other/app/pipeline' }, 'MCP_ALLOW_CIRCLECI_PROJECTS', 'gh/other/app');
      await refused('circleci_get', { path: '/api/v1.1/project/github/other/app/7' }, 'MCP_ALLOW_CIRCLECI_PROJECTS', 'gh/other/app');
      await allowed('circleci_get', { path: '/api/v1.1/project/github/acme/app/7' }, 'GET /api/v1.1/project/github/acme/app/7');
      await refused('circleci_trigger_pipeline', { projectSlug: 'bb/acme/app' }, 'MCP_ALLOW_CIRCLECI_PROJECTS', 'bb/acme/app');
    });
  });

  describe('Bitbucket (MCP_ALLOW_BITBUCKET_REPOS)', () => {
    it('typed tools and the passthrough by workspace/repo; a workspace off the list, a uuid spelling', async () => {
      await allowed('bb_list_pull_requests', { workspace: 'acme', repoSlug: 'app' }, 'GET /2.0/repositories/acme/app/pullrequests');
      await refused('bb_list_pull_requests', { workspace: 'other', repoSlug: 'app' }, 'MCP_ALLOW_BITBUCKET_REPOS', 'other/app');
      await refused('bb_get', { path: '/2.0/repositories/other' }, 'MCP_ALLOW_BITBUCKET_REPOS', 'other');
      await allowed('bb_get', { path: '/2.0/repositories/acme' }, 'GET /2.0/repositories/acme');
      await refused(
        'bb_get',
        { path: '/2.0/repositories/%7Bb7dd1c1e-0000-4000-8000-000000000000%7D/app' },
        'MCP_ALLOW_BITBUCKET_REPOS',
        '{b7dd1c1e-0000-4000-8000-000000000000}/app',
      );
    });
  });

  describe('Jira (MCP_ALLOW_JIRA_PROJECTS) and Confluence (MCP_ALLOW_CONFLUENCE_SPACES)', () => {
    it('Jira issues by key and projects by key; an issue by number is refused as undecidable', async () => {
      await allowed('jira_get', { path: '/rest/api/3/issue/PLAT-12' }, 'GET /rest/api/3/issue/PLAT-12');
      await refused('jira_get', { path: '/rest/api/3/issue/OPS-12' }, 'MCP_ALLOW_JIRA_PROJECTS', 'OPS');
      await refused('jira_get_issue', { issueKey: 'SEC-1' }, 'MCP_ALLOW_JIRA_PROJECTS', 'SEC');
      await refused('jira_get', { path: '/rest/api/2/project/SEC' }, 'MCP_ALLOW_JIRA_PROJECTS', 'SEC');
      await refused('jira_get', { path: '/rest/api/3/issue/10001' }, 'MCP_ALLOW_JIRA_PROJECTS');
      await refused('jira_get', { path: '/rest/agile/1.0/issue/OPS-3' }, 'MCP_ALLOW_JIRA_PROJECTS', 'OPS');
      // What follows issue/ or project/ and names none: not decided.
      await allowed('jira_get', { path: '/rest/api/3/issue/createmeta' }, 'GET /rest/api/3/issue/createmeta');
      await allowed('jira_get', { path: '/rest/api/3/project/search' }, 'GET /rest/api/3/project/search');
      await refused('jira_create_issue', { projectKey: 'SEC', issueType: 'Task', summary: 'x' }, 'MCP_ALLOW_JIRA_PROJECTS', 'SEC');
    });

    it('Confluence spaces by key in the path, the spaceKey query and a created page', async () => {
      await allowed('conf_get', { path: '/wiki/rest/api/space/ENG' }, 'GET /wiki/rest/api/space/ENG');
      await refused('conf_get', { path: '/wiki/rest/api/space/HR' }, 'MCP_ALLOW_CONFLUENCE_SPACES', 'HR');
      await refused('conf_get', { path: '/wiki/rest/api/content?spaceKey=HR&title=Salaries' }, 'MCP_ALLOW_CONFLUENCE_SPACES', 'HR');
      await refused('conf_create_page', { spaceKey: 'HR', title: 'x', body: 'y' }, 'MCP_ALLOW_CONFLUENCE_SPACES', 'HR');
    });
  });
});

describe('Allowlists unset: everything is allowed, as before', function () {
  this.timeout(60_000);
  it('a repository, project and workspace of any name reach the vendor', async () => {
    const mock = await MockUpstream.start();
    answerEverything(mock);
    const session = await connectStdio({ env: vendorEnv(mock) });
    try {
      for (const [name, args] of [
        ['github_get', { path: '/repos/evil/x/readme' }],
        ['circleci_get', { path: '/project/gh/other/app/pipeline' }],
        ['bb_get', { path: '/2.0/repositories/other/app' }],
      ] as const)
        await session.client.callTool({ name, arguments: args });
      expect(mock.requests.map((r) => r.path)).to.deep.equal(['/repos/evil/x/readme', '/api/v2/project/gh/other/app/pipeline', '/2.0/repositories/other/app']);
    } finally {
      await session.close();
      await mock.close();
    }
  });
});

describe('Allowlists under a policy document: the list holds for what the policy allows', function () {
  this.timeout(60_000);
  it('a call and a redirect hop the policy allows are refused off the list; the policy still decides the rest', async () => {
    const mock = await MockUpstream.start();
    answerEverything(mock);
    mock.on('GET', /^\/repos\/acme\/app\/readme$/, { status: 302, headers: { location: `${mock.url}/repos/evil/secret/readme` } });
    const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-allowlists-'));
    writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nrules:\n  - id: reads\n    effect: allow\n    match: { readOnly: true }\n');
    const session = await connectStdio({ cwd: dir, env: { ...vendorEnv(mock), MCP_ALLOW_REPOS: 'acme/app', MCP_POLICY_FILE: join(dir, 'policy.yaml') } });
    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
      (await session.client.callTool({ name, arguments: args })) as CallToolResult;
    try {
      const off = await call('github_get', { path: '/repos/evil/x/readme' });
      expect(off._meta).to.deep.include({ code: 'policy_denied', allowlist: { setting: 'MCP_ALLOW_REPOS', value: 'evil/x' } });
      const hop = await call('github_get', { path: '/repos/acme/app/readme' });
      expect(hop._meta).to.deep.include({ code: 'policy_denied', allowlist: { setting: 'MCP_ALLOW_REPOS', value: 'evil/secret' } });
      const write = await call('github_create_issue', { owner: 'acme', repo: 'app', title: 'x' });
      expect(write._meta).to.deep.include({ code: 'policy_denied' });
      expect(write._meta?.decision).to.deep.include({ effect: 'deny', ruleId: null });
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /repos/acme/app/readme']);
    } finally {
      await session.close();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Allowlists: an entry of the wrong shape stops the start', function () {
  this.timeout(30_000);
  it('names the setting, the entry and the form to write', async () => {
    const run = await runCli([], { env: { MCP_ALLOW_REPOS: 'acme/app, acme' } });
    expect(run.code).to.not.equal(0);
    expect(run.stderr).to.contain('MCP_ALLOW_REPOS lists "acme", which is not of the form owner/repo (acme/app, acme/*)');
    const slug = await runCli([], { env: { MCP_ALLOW_CIRCLECI_PROJECTS: 'acme/*' } });
    expect(slug.code).to.not.equal(0);
    expect(slug.stderr).to.contain('MCP_ALLOW_CIRCLECI_PROJECTS lists "acme/*"');
  });
});

describe('Allowlists in code mode: a program is held to them call by call', function () {
  this.timeout(60_000);
  it("a program's call off the list is refused as policy_denied, the one on it runs", async () => {
    const mock = await MockUpstream.start();
    answerEverything(mock);
    const session = await connectStdio({ env: { ...vendorEnv(mock), MCP_CODE_MODE: 'true', MCP_ALLOW_REPOS: 'acme/app' } });
    try {
      const code = [
        'const out: string[] = [];',
        "for (const repo of ['acme/app', 'evil/x']) {",
        '  try {',
        '    await tools.github_get({ path: `/repos/${repo}/readme` });',
        '    out.push(`${repo} ok`);',
        '  } catch (error) {',
        '    out.push(`${repo} ${(error as ToolCallError).code}`);',
        '  }',
        '}',
        'return out;',
      ].join('\n');
      const result = (await session.client.callTool({ name: 'execute', arguments: { code } })) as CallToolResult;
      expect(textOf(result)).to.contain('Returned: ["acme/app ok","evil/x policy_denied"]');
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /repos/acme/app/readme']);
    } finally {
      await session.close();
      await mock.close();
    }
  });
});
