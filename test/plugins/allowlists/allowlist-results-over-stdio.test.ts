import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ACCOUNT } from '../atlassian/atlassian-calls.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { FIXTURES } from '../../support/paths.js';
import { textOf } from '../../support/test-kernel.js';

/** Said by every item off the lists: none of it may reach the agent, in any part of a result. */
const CANARY = 'CANARY-off-the-list-7c1f';

const LISTS = {
  MCP_ALLOW_REPOS: 'acme/app,acme/docs-*',
  MCP_ALLOW_CIRCLECI_PROJECTS: 'gh/acme/*',
  MCP_ALLOW_BITBUCKET_REPOS: 'acme/app',
  MCP_ALLOW_JIRA_PROJECTS: 'PLAT',
  MCP_ALLOW_CONFLUENCE_SPACES: 'ENG',
};

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
    JIRA_DEPLOYMENT: 'cloud',
    CONFLUENCE_BASE_URL: mock.url,
    CONFLUENCE_DEPLOYMENT: 'cloud',
    MCP_STRUCTURED_OUTPUT: 'true',
    MCP_STRUCTURED_MAX_BYTES: '16384',
  };
}

const json = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const atlassian = (name: string): Record<string, unknown> => JSON.parse(payload(name)) as Record<string, unknown>;
const copy = <T>(value: T): T => structuredClone(value);

/** GitHub's search item (its documented shape, from the fixture) moved to `repo`, titled as given. */
function issueItem(repo: string, number: number, title: string): Record<string, unknown> {
  const item = copy((json('github/issue-search-result-paginated.json').items as Array<Record<string, unknown>>)[0]!);
  const api = `https://api.github.com/repos/${repo}`;
  return { ...item, url: `${api}/issues/${number}`, repository_url: api, html_url: `https://github.com/${repo}/issues/${number}`, number, title };
}

/** A repository (GitHub's documented shape) named `full`. */
function repository(full: string, description: string): Record<string, unknown> {
  const [owner, name] = full.split('/');
  const repo = copy(json('github/repository.json'));
  return { ...repo, name, full_name: full, owner: { ...(repo.owner as object), login: owner }, description, html_url: `https://github.com/${full}` };
}

/** A Jira Cloud search page's issue (from the fixture) keyed `key`, its summary as given. */
function jiraIssue(key: string, summary: string): Record<string, unknown> {
  const issue = copy((atlassian('jira/search-jql.json').issues as Array<Record<string, unknown>>)[0]!);
  const fields = { ...(issue.fields as Record<string, unknown>), summary };
  return { ...issue, key, id: String(10_000 + key.length), self: `https://acme.atlassian.net/rest/api/3/issue/${key}`, fields };
}

/** A CQL search result (from the fixture) in `space`, its title as given. */
function cqlResult(space: string, id: string, title: string): Record<string, unknown> {
  const result = copy((atlassian('confluence/search.json').results as Array<Record<string, unknown>>)[0]!);
  const webui = `/spaces/${space}/pages/${id}/x`;
  return {
    ...result,
    content: { ...(result.content as object), id, title, _links: { webui, self: `https://acme.atlassian.net/wiki/rest/api/content/${id}` } },
    title,
    excerpt: title,
    url: webui,
    resultGlobalContainer: { title: space, displayUrl: `/spaces/${space}` },
  };
}

interface Envelope {
  data: unknown;
  allowlist?: { leftOut: number; settings: string[]; note: string };
  incomplete?: { artifactId: string | null };
}

describe('Allowlists over results: items off the lists never reach the agent, and the result says how many were left out', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let session: StdioSession;
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name, arguments: args })) as CallToolResult;

  /** The whole result as the agent gets it: every text block, the structured value and `_meta`. */
  const everything = (result: CallToolResult): string => JSON.stringify(result);

  /**
   * A result with `left` items left out under `setting`, said in the text, beside data and in `_meta`. A tool
   * without an envelope (the GitHub passthrough) has no structured value: its text says it before the data.
   */
  function leftOut(result: CallToolResult, left: number, setting: string): Envelope {
    expect(result.isError, textOf(result)).to.not.equal(true);
    expect(everything(result)).to.not.contain(CANARY);
    const note = `${left} item${left === 1 ? '' : 's'} outside ${setting} ${left === 1 ? 'was' : 'were'} left out of this result.`;
    expect(result._meta?.['mcp-devtools/allowlist']).to.deep.equal({ leftOut: left, settings: [setting], note });
    expect(textOf(result)).to.contain(note);
    const structured = result.structuredContent as unknown as Envelope | undefined;
    if (structured === undefined) {
      expect(textOf(result).indexOf(note)).to.be.below(200);
      return { data: undefined };
    }
    expect(structured.allowlist).to.deep.equal({ leftOut: left, settings: [setting], note });
    return structured;
  }

  /** A read refused whole under `setting`: the sentence names it, and nothing of the resource is shown. */
  function withheld(result: CallToolResult, setting: string, value?: string): string {
    expect(result.isError, textOf(result)).to.equal(true);
    expect(result._meta).to.deep.include({ code: 'policy_denied' });
    expect(result._meta?.allowlist).to.deep.equal(value === undefined ? { setting } : { setting, value });
    expect(everything(result)).to.not.contain(CANARY);
    expect(textOf(result)).to.contain(setting).and.to.contain('the result was withheld');
    return textOf(result);
  }

  before(async () => {
    mock = await MockUpstream.start();
    session = await connectStdio({ env: { ...vendorEnv(mock), ...LISTS } });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  describe('GitHub (MCP_ALLOW_REPOS)', () => {
    it('github_search_issues without repo: keeps the listed repositories, leaves the others out and counts them', async () => {
      const page = copy(json('github/issue-search-result-paginated.json'));
      page.items = [
        issueItem('acme/app', 1, 'Checkout 502'),
        issueItem('evil/secret', 2, `${CANARY} leaked title`),
        issueItem('acme/docs-site', 3, 'Docs typo'),
        issueItem('acme-evil/app', 4, `${CANARY} a glob does not cross the dash`),
      ];
      mock.on('GET', '/search/issues', { body: page });
      const result = await call('github_search_issues', { query: 'is:open checkout' });
      const structured = leftOut(result, 2, 'MCP_ALLOW_REPOS');
      const items = (structured.data as { items: Array<{ title: string }> }).items;
      expect(items.map((i) => i.title)).to.deep.equal(['Checkout 502', 'Docs typo']);
    });

    it('the passthrough on search endpoints: code search by repository.full_name, repositories by full_name', async () => {
      mock.on('GET', '/search/code', {
        body: {
          total_count: 2,
          incomplete_results: false,
          items: [
            { name: 'a.ts', path: 'src/a.ts', sha: '1', repository: repository('acme/app', 'app') },
            { name: 'token.ts', path: `src/${CANARY}.ts`, sha: '2', repository: repository('evil/x', CANARY) },
          ],
        },
      });
      leftOut(await call('github_get', { path: '/search/code?q=token' }), 1, 'MCP_ALLOW_REPOS');
      mock.on('GET', '/search/repositories', {
        body: { total_count: 2, incomplete_results: false, items: [repository('evil/x', CANARY), repository('ACME/App', 'app')] },
      });
      leftOut(await call('github_get', { path: '/search/repositories?q=app' }), 1, 'MCP_ALLOW_REPOS');
    });

    it("github_list_repositories of an organization and the passthrough's listings across repositories", async () => {
      mock.on('GET', '/orgs/acme/repos', { body: [repository('acme/app', 'the app'), repository('acme/payroll', CANARY), repository('acme/docs-x', 'docs')] });
      const repos = leftOut(await call('github_list_repositories', { owner: 'acme' }), 1, 'MCP_ALLOW_REPOS');
      expect((repos.data as Array<{ full_name: string }>).map((r) => r.full_name)).to.deep.equal(['acme/app', 'acme/docs-x']);
      mock.on('GET', '/notifications', {
        body: [
          { id: '1', unread: true, reason: 'mention', subject: { title: CANARY, type: 'Issue' }, repository: repository('evil/x', CANARY) },
          { id: '2', unread: true, reason: 'mention', subject: { title: 'ok', type: 'Issue' }, repository: repository('acme/app', 'app') },
        ],
      });
      leftOut(await call('github_get', { path: '/notifications' }), 1, 'MCP_ALLOW_REPOS');
      mock.on('GET', '/user/issues', { body: [{ ...issueItem('evil/x', 9, CANARY), repository: repository('evil/x', CANARY) }] });
      const none = await call('github_get', { path: '/user/issues' });
      leftOut(none, 1, 'MCP_ALLOW_REPOS');
      expect(textOf(none)).to.not.contain('evil/x');
    });

    it('GraphQL search: nodes and edges off the list are left out, and so is a node that names no repository', async () => {
      const issue = (repo: string, title: string) => ({ __typename: 'Issue', number: 1, title, repository: { nameWithOwner: repo } });
      mock.on('POST', '/graphql', {
        body: {
          data: {
            found: {
              issueCount: 4,
              nodes: [issue('acme/app', 'ok'), issue('evil/x', CANARY), { __typename: 'Issue', number: 3, title: CANARY }],
              edges: [{ node: issue('acme/docs-x', 'docs') }, { node: issue('Evil/App', CANARY) }],
            },
            viewer: { login: 'mia' },
          },
        },
      });
      const query =
        'query { found: search(query: "is:open", type: ISSUE, first: 5) { issueCount nodes { ... on Issue { number title repository { nameWithOwner } } } edges { node { ... on Issue { title repository { nameWithOwner } } } } } viewer { login } }';
      const result = await call('github_graphql', { query });
      leftOut(result, 3, 'MCP_ALLOW_REPOS');
      expect(textOf(result)).to.contain('acme/docs-x').and.to.contain('mia');
    });

    it('a node read by id (node, nodes, under relay) off the list is refused whole, by its repository, nameWithOwner or url', async () => {
      const graphql = (data: unknown) => mock.on('POST', '/graphql', { body: { data } });
      const issue = (repo: string, title: string) => ({ __typename: 'Issue', title, repository: { nameWithOwner: repo } });
      const byId = 'query { node(id: "I_kwDOAbc") { __typename ... on Issue { title repository { nameWithOwner } } } }';

      graphql({ node: issue('evil/x', CANARY) });
      expect(withheld(await call('github_graphql', { query: byId }), 'MCP_ALLOW_REPOS', 'evil/x')).to.contain('node at node (a Issue) by id');
      graphql({ node: issue('acme/app', 'Checkout 502') });
      const ok = await call('github_graphql', { query: byId });
      expect(ok.isError, textOf(ok)).to.not.equal(true);
      expect(textOf(ok)).to.contain('Checkout 502');

      // One node of several off the list withholds them all, as a read by id would.
      graphql({ found: [issue('acme/app', 'fine'), issue('Evil/App', CANARY), null] });
      withheld(
        await call('github_graphql', { query: 'query { found: nodes(ids: ["a", "b", "c"]) { ... on Issue { title repository { nameWithOwner } } } }' }),
        'MCP_ALLOW_REPOS',
        'Evil/App',
      );
      // Query.relay is the root again; a Repository by its nameWithOwner; anything by its web address.
      graphql({ relay: { node: { nameWithOwner: 'evil/x', description: CANARY } } });
      withheld(
        await call('github_graphql', { query: 'query { relay { node(id: "R_1") { ... on Repository { nameWithOwner description } } } }' }),
        'MCP_ALLOW_REPOS',
        'evil/x',
      );
      graphql({ node: { url: 'https://github.com/evil/x/pull/3', title: CANARY } });
      withheld(await call('github_graphql', { query: 'query { node(id: "PR_1") { ... on PullRequest { url title } } }' }), 'MCP_ALLOW_REPOS', 'evil/x');
      // A person belongs to no repository: kept.
      graphql({ node: { __typename: 'User', login: 'mia', url: 'https://github.com/mia' } });
      const person = await call('github_graphql', { query: 'query { node(id: "U_1") { __typename ... on User { login url } } }' });
      expect(person.isError, textOf(person)).to.not.equal(true);
      // A node that answers without its repository (the query selected it for another type only) is withheld.
      graphql({ node: { __typename: 'Issue', title: CANARY } });
      const unnamed = withheld(
        await call('github_graphql', {
          query: 'query { node(id: "I_2") { __typename ... on Issue { title } ... on PullRequest { repository { nameWithOwner } } } }',
        }),
        'MCP_ALLOW_REPOS',
      );
      expect(unnamed).to.contain('names no repository').and.to.contain('repository { nameWithOwner }');
    });

    it('a node query that cannot name its repository is refused before it is sent, saying what to select', async () => {
      mock.on('POST', '/graphql', { body: { data: { node: { title: CANARY } } } });
      for (const query of [
        'query { node(id: "I_kwDOAbc") { ... on Issue { title body } } }',
        // An alias that spells a deciding key for another field would forge the answer.
        'query { node(id: "I_kwDOAbc") { ... on Issue { title repository { nameWithOwner: name } } } }',
        'query { n: node(id: "I_kwDOAbc") { ... on Issue { url: title } } }',
        'query { ...Q } fragment Q on Query { nodes(ids: ["I_1"]) { id ... on Issue { body } } }',
      ]) {
        const result = await call('github_graphql', { query });
        expect(result.isError, query).to.equal(true);
        expect(result._meta, query).to.deep.include({ code: 'policy_denied' });
        expect(textOf(result), query).to.contain('MCP_ALLOW_REPOS cannot decide').and.to.contain('nothing was sent');
      }
      expect(textOf(await call('github_graphql', { query: 'query { node(id: "I_kwDOAbc") { ... on Issue { title } } }' }))).to.contain(
        'add `repository { nameWithOwner }` to it',
      );
      expect(mock.requests).to.deep.equal([]);
    });

    it('a redirect to a repository by id (a rename) is decided by what it returns', async () => {
      mock.on('GET', '/repos/acme/app/issues/7', { status: 301, headers: { location: `${mock.url}/repositories/42/issues/7` } });
      mock.on('GET', '/repositories/42/issues/7', { body: { ...issueItem('evil/x', 7, CANARY) } });
      const text = withheld(await call('github_get_issue', { owner: 'acme', repo: 'app', issueNumber: 7 }), 'MCP_ALLOW_REPOS', 'evil/x');
      expect(text).to.contain('evil/x');
    });

    it('a big result spilled to an artifact holds only what the agent may see', async () => {
      const page = copy(json('github/issue-search-result-paginated.json'));
      page.items = Array.from({ length: 40 }, (_, i) =>
        i % 4 === 0 ? issueItem('evil/secret', i, `${CANARY} ${i}`) : issueItem('acme/app', i, `Allowed issue ${i} ${'x'.repeat(200)}`),
      );
      mock.on('GET', '/search/issues', { body: page });
      const result = await call('github_search_issues', { query: 'is:open' });
      const structured = leftOut(result, 10, 'MCP_ALLOW_REPOS');
      const artifactId = structured.incomplete?.artifactId;
      expect(artifactId, 'the structured value was spilled').to.be.a('string');
      const read = await call('artifact_read', { artifactId, offset: 0 });
      const chunk = JSON.parse(textOf(read)) as { data: string; eof: boolean };
      const saved = Buffer.from(chunk.data, 'base64').toString('utf8');
      expect(saved).to.contain('Allowed issue 1').and.not.to.contain(CANARY);
    });
  });

  describe('Jira (MCP_ALLOW_JIRA_PROJECTS)', () => {
    it('jira_search with JQL over every project still works: the other projects are left out, and never read for labels', async () => {
      const page = {
        issues: [jiraIssue('PLAT-1', 'Checkout 502'), jiraIssue('SEC-2', CANARY), jiraIssue('OPS-3', CANARY)],
        nextPageToken: 'tok-2',
        isLast: false,
      };
      mock.on('GET', '/rest/api/3/search/jql', jsonReply(JSON.stringify(page)));
      const result = await call('jira_search', { jql: 'text ~ "password"' });
      const structured = leftOut(result, 2, 'MCP_ALLOW_JIRA_PROJECTS') as Envelope & { nextCursor: string };
      expect((structured.data as { issues: Array<{ key: string }> }).issues.map((i) => i.key)).to.deep.equal(['PLAT-1']);
      expect(structured.nextCursor).to.equal('tok-2');
      expect(mock.requests.map((r) => r.url).join('\n')).to.not.match(/SEC|OPS/);
    });

    it('an issue whose project key disagrees with its fields.project.key is left out', async () => {
      const moved = jiraIssue('PLAT-5', CANARY);
      moved.fields = { ...(moved.fields as object), project: { key: 'SEC', id: '10001', name: 'Security' } };
      mock.on('GET', '/rest/api/3/search', jsonReply(JSON.stringify({ startAt: 0, maxResults: 50, total: 1, issues: [moved] })));
      leftOut(await call('jira_get', { path: '/rest/api/3/search?jql=project%20is%20not%20EMPTY' }), 1, 'MCP_ALLOW_JIRA_PROJECTS');
    });

    it("the issue picker's suggestions, section by section", async () => {
      const pick = (key: string, summary: string) => ({
        key,
        keyHtml: key,
        img: '/images/icons/issuetypes/task.svg',
        summary,
        summaryText: summary,
        id: 10_001,
      });
      const picker = {
        sections: [
          { label: 'History Search', sub: 'Showing 2 of 2 matching issues', id: 'hs', issues: [pick('PLAT-1', 'ok'), pick('SEC-2', CANARY)] },
          { label: 'Current Search', sub: 'Showing 1 of 1 matching issues', id: 'cs', issues: [pick('OPS-9', CANARY)] },
        ],
      };
      mock.on('GET', '/rest/api/3/issue/picker', jsonReply(JSON.stringify(picker)));
      const structured = leftOut(await call('jira_get', { path: '/rest/api/3/issue/picker?query=pass' }), 2, 'MCP_ALLOW_JIRA_PROJECTS');
      const sections = (structured.data as { sections: Array<{ issues: Array<{ key: string }> }> }).sections;
      expect(sections.map((section) => section.issues.map((i) => i.key))).to.deep.equal([['PLAT-1'], []]);
    });

    it('a key of the list that answers with an issue moved off it is refused whole', async () => {
      mock.on('GET', '/rest/api/3/issue/PLAT-1', jsonReply(JSON.stringify(jiraIssue('SEC-9', CANARY))));
      const text = withheld(await call('jira_get_issue', { issueKey: 'PLAT-1' }), 'MCP_ALLOW_JIRA_PROJECTS', 'SEC');
      expect(text).to.contain('add SEC to MCP_ALLOW_JIRA_PROJECTS');
      const passthrough = await call('jira_get', { path: '/rest/api/3/issue/PLAT-1' });
      withheld(passthrough, 'MCP_ALLOW_JIRA_PROJECTS', 'SEC');
    });
  });

  describe('Confluence (MCP_ALLOW_CONFLUENCE_SPACES)', () => {
    it('conf_search with CQL over every space: results of other spaces are left out; a person is kept', async () => {
      const page = copy(atlassian('confluence/search.json'));
      page.results = [
        cqlResult('ENG', '1', 'Runbook'),
        cqlResult('HR', '2', CANARY),
        { user: { accountId: '5b10', displayName: 'Mia Krystof' }, title: 'Mia Krystof', entityType: 'user', url: '/people/5b10' },
        { ...cqlResult('HR', '3', CANARY), content: { id: '3', type: 'page', title: CANARY } },
      ];
      mock.on('GET', '/wiki/rest/api/search', jsonReply(JSON.stringify(page)));
      const structured = leftOut(await call('conf_search', { cql: 'text ~ "salary"' }), 2, 'MCP_ALLOW_CONFLUENCE_SPACES');
      // Titles are people's words: fenced as untrusted text (docs/untrusted-content.md), kept in order.
      const titles = (structured.data as { results: Array<{ title: string }> }).results.map((r) => r.title);
      expect(titles).to.have.length(2);
      expect(titles[0]).to.contain('Runbook');
      expect(titles[1]).to.contain('Mia Krystof');
    });

    it('conf_get_page by id: a page whose space is off the list is refused, decided by the space it is read in', async () => {
      const page = { ...atlassian('confluence/page.json'), id: '777', title: CANARY, spaceId: '999', _links: {} };
      (page as unknown as { body: unknown }).body = { storage: { value: `<p>${CANARY}</p>`, representation: 'storage' } };
      mock.on('GET', '/wiki/api/v2/pages/777', jsonReply(JSON.stringify(page)));
      mock.on('GET', '/wiki/api/v2/spaces/999', jsonReply('{"id":"999","key":"HR","name":"People","type":"global","status":"current"}'));
      const text = withheld(await call('conf_get_page', { pageId: '777' }), 'MCP_ALLOW_CONFLUENCE_SPACES', 'HR');
      expect(text).to.contain('space HR');
      // On the list, the same page is read.
      mock.on('GET', '/wiki/api/v2/spaces/999', jsonReply('{"id":"999","key":"ENG","name":"Engineering","type":"global","status":"current"}'));
      const ok = await call('conf_get_page', { pageId: '777' });
      expect(ok.isError, textOf(ok)).to.not.equal(true);
      expect((ok.structuredContent as { data: { space: { key: string } } }).data.space.key).to.equal('ENG');
    });

    it('conf_update_page of a page off the list: the read of its version is refused, so nothing is written', async () => {
      const page = { ...atlassian('confluence/page.json'), id: '555', title: CANARY, _links: { webui: '/spaces/HR/pages/555/x' } };
      mock.on('GET', '/wiki/api/v2/pages/555', jsonReply(JSON.stringify(page)));
      mock.on('PUT', '/wiki/api/v2/pages/555', jsonReply(JSON.stringify(page)));
      withheld(await call('conf_update_page', { pageId: '555', body: 'Overwritten' }), 'MCP_ALLOW_CONFLUENCE_SPACES', 'HR');
      expect(mock.requests.map((r) => r.method)).to.deep.equal(['GET']);
    });

    it('conf_update_page given its version and title, and conf_add_comment: a page off the list is refused before anything is written', async () => {
      const page = { ...atlassian('confluence/page.json'), id: '556', title: CANARY, spaceId: '999', _links: {} };
      mock.on('GET', '/wiki/api/v2/pages/556', jsonReply(JSON.stringify(page)));
      mock.on('GET', '/wiki/api/v2/spaces/999', jsonReply('{"id":"999","key":"HR","name":"People","type":"global","status":"current"}'));
      mock.on('PUT', '/wiki/api/v2/pages/556', jsonReply(JSON.stringify(page)));
      mock.on('POST', '/wiki/api/v2/footer-comments', jsonReply('{"id":"9001","pageId":"556"}'));
      const update = await call('conf_update_page', { pageId: '556', version: 3, title: 'Pay bands', body: 'Overwritten' });
      expect(update.isError, textOf(update)).to.equal(true);
      expect(update._meta).to.deep.include({ code: 'policy_denied' });
      expect(textOf(update)).to.contain('Confluence space HR').and.to.contain('nothing was sent');
      const comment = await call('conf_add_comment', { pageId: '556', body: 'Hello' });
      expect(textOf(comment)).to.contain('Confluence space HR').and.to.contain('nothing was sent');
      // The page's space was read once (remembered), and nothing was written.
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /wiki/api/v2/pages/556', 'GET /wiki/api/v2/spaces/999']);
    });

    it('the passthrough reading a v2 page by id: decided by its web address, refused when it names its space by id only', async () => {
      const page = { ...atlassian('confluence/page.json'), title: CANARY };
      (page as unknown as { _links: unknown })._links = { webui: '/spaces/HR/pages/163841/x' };
      mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(JSON.stringify(page)));
      withheld(await call('conf_get', { path: '/wiki/api/v2/pages/163841' }), 'MCP_ALLOW_CONFLUENCE_SPACES', 'HR');
      mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(JSON.stringify({ ...page, _links: {} })));
      const text = withheld(await call('conf_get', { path: '/wiki/api/v2/pages/163841' }), 'MCP_ALLOW_CONFLUENCE_SPACES');
      expect(text).to.contain('names its space by id only').and.to.contain('conf_get_page');
    });
  });

  describe('Bitbucket (MCP_ALLOW_BITBUCKET_REPOS) and CircleCI (MCP_ALLOW_CIRCLECI_PROJECTS)', () => {
    it("a workspace's repositories on the passthrough: the ones off the list are left out", async () => {
      const repos = copy(atlassian('bitbucket/repositories.json'));
      const first = (repos.values as Array<Record<string, unknown>>)[0]!;
      repos.values = [
        { ...first, full_name: 'acme/app', name: 'app', slug: 'app' },
        { ...first, full_name: 'acme/payroll', name: CANARY, slug: 'payroll', description: CANARY },
      ];
      mock.on('GET', '/2.0/repositories/acme', jsonReply(JSON.stringify(repos)));
      const structured = leftOut(await call('bb_get', { path: '/2.0/repositories/acme' }), 1, 'MCP_ALLOW_BITBUCKET_REPOS');
      expect((structured.data as { values: Array<{ full_name: string }> }).values.map((r) => r.full_name)).to.deep.equal(['acme/app']);
    });

    it("an organization's pipelines are left out by project; a pipeline read by id off the list is refused", async () => {
      const pipeline = (slug: string, id: string) => ({
        id,
        errors: [],
        project_slug: slug,
        updated_at: '2026-11-30T09:00:00Z',
        number: 12,
        state: 'created',
        created_at: '2026-11-30T09:00:00Z',
        trigger: { type: 'webhook', received_at: '2026-11-30T09:00:00Z', actor: { login: 'mia', avatar_url: null } },
        vcs: { branch: slug.includes('other') ? CANARY : 'main', revision: 'abc' },
      });
      mock.on('GET', '/api/v2/pipeline', {
        body: { items: [pipeline('gh/acme/app', 'p1'), pipeline('gh/other/x', 'p2'), pipeline('github/other/y', 'p3')], next_page_token: null },
      });
      leftOut(await call('circleci_get', { path: '/pipeline?org-slug=gh/acme' }), 2, 'MCP_ALLOW_CIRCLECI_PROJECTS');
      mock.on('GET', '/api/v2/pipeline/5034460f-c7c4-4c43-9457-de07e2029e7b', { body: pipeline('gh/other/x', '5034460f') });
      withheld(await call('circleci_get', { path: '/pipeline/5034460f-c7c4-4c43-9457-de07e2029e7b' }), 'MCP_ALLOW_CIRCLECI_PROJECTS', 'gh/other/x');
    });

    it("a pipeline's config and values by id: its project is read first; off the list nothing of them is asked for", async () => {
      const id = '9a1c2b3d-0000-4c43-9457-de07e2029e7b';
      mock.on('GET', `/api/v2/pipeline/${id}`, { body: { id, number: 3, state: 'created', project_slug: 'gh/other/x', errors: [] } });
      mock.on('GET', `/api/v2/pipeline/${id}/config`, { body: { source: `# ${CANARY}`, compiled: `# ${CANARY}` } });
      mock.on('GET', `/api/v2/pipeline/${id}/values`, { body: { 'pipeline.git.branch': CANARY } });
      for (const path of [`/pipeline/${id}/config`, `/pipeline/${id}/values`]) {
        const result = await call('circleci_get', { path });
        expect(result.isError, textOf(result)).to.equal(true);
        expect(result._meta).to.deep.include({ code: 'policy_denied' });
        expect(result._meta?.allowlist).to.deep.equal({ setting: 'MCP_ALLOW_CIRCLECI_PROJECTS', value: 'gh/other/x' });
        expect(JSON.stringify(result)).to.not.contain(CANARY);
        expect(textOf(result)).to.contain(`pipeline ${id} of the CircleCI project gh/other/x`).and.to.contain('nothing was sent');
      }
      expect(mock.requests.map((r) => r.path)).to.deep.equal([`/api/v2/pipeline/${id}`]);
      // A pipeline of a listed project: its config is answered.
      const listed = '1b2c3d4e-0000-4c43-9457-de07e2029e7b';
      mock.on('GET', `/api/v2/pipeline/${listed}`, { body: { id: listed, number: 4, state: 'created', project_slug: 'github/acme/app', errors: [] } });
      mock.on('GET', `/api/v2/pipeline/${listed}/config`, { body: { source: 'version: 2.1', compiled: 'version: 2.1' } });
      const ok = await call('circleci_get', { path: `/pipeline/${listed}/config` });
      expect(ok.isError, textOf(ok)).to.not.equal(true);
      expect(textOf(ok)).to.contain('version: 2.1');
    });

    it('circleci_rerun_workflow of a workflow off the list is refused before the rerun is sent; on the list it is sent, its project read once', async () => {
      const off = 'fda08377-0000-4f4f-a8b5-6ff5e5b6a6b1';
      const on = 'fda08377-1111-4f4f-a8b5-6ff5e5b6a6b1';
      const workflow = (id: string, slug: string) => ({ id, name: 'build', status: 'failed', project_slug: slug, pipeline_id: 'p', pipeline_number: 1 });
      mock.on('GET', `/api/v2/workflow/${off}`, { body: workflow(off, 'gh/other/x') });
      mock.on('GET', `/api/v2/workflow/${on}`, { body: workflow(on, 'gh/acme/app') });
      mock.on('POST', /^\/api\/v2\/workflow\/[^/]+\/rerun$/, { status: 202, body: { workflow_id: 'new-workflow' } });
      const refused = await call('circleci_rerun_workflow', { workflowId: off });
      expect(refused.isError, textOf(refused)).to.equal(true);
      expect(refused._meta).to.deep.include({ code: 'policy_denied' });
      expect(textOf(refused)).to.contain(`workflow ${off} of the CircleCI project gh/other/x`).and.to.contain('add gh/other/x to MCP_ALLOW_CIRCLECI_PROJECTS');
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`GET /api/v2/workflow/${off}`]);
      mock.requests.length = 0;
      for (let i = 0; i < 2; i++) {
        const rerun = await call('circleci_rerun_workflow', { workflowId: on });
        expect(rerun.isError, textOf(rerun)).to.not.equal(true);
      }
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
        `GET /api/v2/workflow/${on}`,
        `POST /api/v2/workflow/${on}/rerun`,
        `POST /api/v2/workflow/${on}/rerun`,
      ]);
    });

    it("circleci_post and circleci_patch by id (a workflow's approval and cancel, a schedule) are refused off the list before they are sent", async () => {
      const off = 'fda08377-2222-4f4f-a8b5-6ff5e5b6a6b1';
      mock.on('GET', `/api/v2/workflow/${off}`, {
        body: { id: off, name: 'deploy', status: 'on_hold', project_slug: 'gh/other/x', pipeline_id: 'p', pipeline_number: 2 },
      });
      mock.on('GET', '/api/v2/schedule/sch-1', { body: { id: 'sch-1', name: CANARY, 'project-slug': 'gh/other/x', timetable: {} } });
      mock.on('POST', /^\/api\/v2\/workflow\//, { status: 202, body: { message: 'Accepted.' } });
      mock.on('PATCH', '/api/v2/schedule/sch-1', { body: { id: 'sch-1' } });
      for (const [tool, path, body] of [
        ['circleci_post', `/workflow/${off}/approve/8e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b`, undefined],
        ['circleci_post', `/workflow/${off}/cancel`, undefined],
        ['circleci_patch', '/schedule/sch-1', { description: 'x' }],
      ] as const) {
        const result = await call(tool, { path, ...(body ? { body } : {}) });
        expect(result.isError, `${tool} ${path}: ${textOf(result)}`).to.equal(true);
        expect(result._meta?.allowlist).to.deep.equal({ setting: 'MCP_ALLOW_CIRCLECI_PROJECTS', value: 'gh/other/x' });
        expect(textOf(result)).to.contain('nothing was sent');
      }
      expect(mock.requests.map((r) => r.method)).to.deep.equal(['GET', 'GET']);
      // The schedule read by id is decided by what it answers.
      withheld(await call('circleci_get', { path: '/schedule/sch-1' }), 'MCP_ALLOW_CIRCLECI_PROJECTS', 'gh/other/x');
    });
  });
});

describe('Allowlists over GitHub GraphQL mutations by node id: decided before they are sent', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let session: StdioSession;
  /** Each node id the mock knows: GitHub's `nodes(ids:)` answer for it. */
  const NODES: Record<string, unknown> = {
    I_evil: { __typename: 'Issue', repository: { nameWithOwner: 'evil/x' }, url: 'https://github.com/evil/x/issues/4' },
    I_app: { __typename: 'Issue', repository: { nameWithOwner: 'acme/app' }, url: 'https://github.com/acme/app/issues/5' },
    U_mia: { __typename: 'User', url: 'https://github.com/mia' },
    PVT_1: { __typename: 'ProjectV2' },
  };
  const mutations = (): number => mock.requests.filter((r) => r.path === '/graphql' && r.body.includes('mutation')).length;
  const call = async (query: string, variables?: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name: 'github_graphql', arguments: { query, ...(variables ? { variables } : {}) } })) as CallToolResult;

  before(async () => {
    mock = await MockUpstream.start();
    session = await connectStdio({ env: { ...vendorEnv(mock), ...LISTS, GITHUB_GRAPHQL_MUTATIONS: 'true' } });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.reset();
    mock.on('POST', '/graphql', (request) => {
      const { query, variables } = JSON.parse(request.body) as { query: string; variables?: { ids?: string[] } };
      if (query.includes('nodes(ids:')) return { body: { data: { nodes: (variables?.ids ?? []).map((id) => NODES[id] ?? null) } } };
      return { body: { data: { addComment: { commentEdge: { node: { url: 'https://github.com/x/y/issues/1#issuecomment-1' } } } } } };
    });
  });

  const ADD_COMMENT = 'mutation($id: ID!) { addComment(input: {subjectId: $id, body: "hi"}) { commentEdge { node { url } } } }';

  it('a comment on an issue of a repository off the list is refused, and the mutation never sent', async () => {
    for (const [query, variables] of [
      [ADD_COMMENT, { id: 'I_evil' }],
      ['mutation { addComment(input: {subjectId: "I_evil", body: "hi", clientMutationId: "I_app"}) { clientMutationId } }', undefined],
      [
        'mutation($input: AddAssigneesToAssignableInput!) { addAssigneesToAssignable(input: $input) { clientMutationId } }',
        { input: { assignableId: 'I_evil', assigneeIds: ['U_mia'] } },
      ],
      // Many of GitHub's inputs name the node they change `id` (updateIssue, updateIssueComment, deleteIssueComment).
      ['mutation { updateIssue(input: {id: "I_evil", body: "rewritten"}) { clientMutationId } }', undefined],
      ['mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { clientMutationId } }', { input: { id: 'I_evil', title: 'x' } }],
      ['mutation($ids: [ID!]!) { a: deleteIssueComment(input: {id: $ids}) { clientMutationId } }', { ids: ['I_evil'] }],
    ] as const) {
      const result = await call(query, variables);
      expect(result.isError, query).to.equal(true);
      expect(result._meta, query).to.deep.include({ code: 'policy_denied' });
      expect(result._meta?.allowlist).to.deep.equal({ setting: 'MCP_ALLOW_REPOS', value: 'evil/x' });
      expect(textOf(result)).to.contain('node I_evil of the GitHub repository evil/x').and.to.contain('nothing was sent');
    }
    expect(mutations(), 'mutations the mock received').to.equal(0);
  });

  it('a node that belongs to no repository the list can decide refuses it; one of a listed repository, or a person, is sent', async () => {
    const project = await call('mutation { updateProjectV2(input: {projectId: "PVT_1", title: "x"}) { clientMutationId } }');
    expect(textOf(project)).to.contain('node PVT_1 (a ProjectV2), which belongs to no repository MCP_ALLOW_REPOS can decide');
    expect(mutations()).to.equal(0);
    const ok = await call('mutation($input: AddAssigneesToAssignableInput!) { addAssigneesToAssignable(input: $input) { clientMutationId } }', {
      input: { assignableId: 'I_app', assigneeIds: ['U_mia'] },
    });
    expect(ok.isError, textOf(ok)).to.not.equal(true);
    expect(mutations()).to.equal(1);
    // The issue's repository is remembered: the next comment on it reads nothing first.
    const lookups = (): number => mock.requests.filter((r) => r.body.includes('nodes(ids:')).length;
    const before = lookups();
    expect((await call(ADD_COMMENT, { id: 'I_app' })).isError).to.not.equal(true);
    expect(lookups()).to.equal(before);
    expect(mutations()).to.equal(2);
  });
});

describe('Allowlists over results in code mode: a program sees the filtered items and the count', function () {
  this.timeout(60_000);
  it("a program's search gets only the listed repositories' items", async () => {
    const mock = await MockUpstream.start();
    const page = copy(json('github/issue-search-result-paginated.json'));
    page.items = [issueItem('acme/app', 1, 'ok'), issueItem('evil/x', 2, CANARY)];
    mock.on('GET', '/search/issues', { body: page });
    const session = await connectStdio({ env: { ...vendorEnv(mock), MCP_CODE_MODE: 'true', MCP_ALLOW_REPOS: 'acme/app' } });
    try {
      const code = ["const found = await tools.github_search_issues({ query: 'is:open' });", 'return JSON.stringify(found);'].join('\n');
      const result = (await session.client.callTool({ name: 'execute', arguments: { code } })) as CallToolResult;
      expect(textOf(result), textOf(result)).to.contain('left out of this result');
      expect(JSON.stringify(result)).to.not.contain(CANARY);
    } finally {
      await session.close();
      await mock.close();
    }
  });
});

describe('Allowlists over a Jira Data Center search: a page the list shortened still pages on', function () {
  this.timeout(60_000);
  it("the next cursor is the offset after Jira's page, not after the issues left in it", async () => {
    const mock = await MockUpstream.start();
    const page = { startAt: 0, maxResults: 3, total: 5, issues: [jiraIssue('PLAT-1', 'ok'), jiraIssue('SEC-2', CANARY), jiraIssue('PLAT-3', 'ok')] };
    mock.on('GET', '/rest/api/2/search', jsonReply(JSON.stringify(page)));
    const session = await connectStdio({
      env: { JIRA_BASE_URL: mock.url, JIRA_PERSONAL_TOKEN: 'dc-pat-allowlist-0123456789', MCP_STRUCTURED_OUTPUT: 'true', MCP_ALLOW_JIRA_PROJECTS: 'PLAT' },
    });
    try {
      const result = (await session.client.callTool({ name: 'jira_search', arguments: { jql: 'order by key', maxResults: 3 } })) as CallToolResult;
      expect(JSON.stringify(result)).to.not.contain(CANARY);
      const structured = result.structuredContent as { nextCursor: string | null; allowlist: { leftOut: number } };
      expect(structured.allowlist.leftOut).to.equal(1);
      // Offset 3, where Jira's next page starts: offset 2 (0 + the two issues shown) would show PLAT-3 again.
      expect(structured.nextCursor).to.equal('3');
    } finally {
      await session.close();
      await mock.close();
    }
  });
});
