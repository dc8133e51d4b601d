import { expect } from 'chai';
import { githubFixture, pagedArrayReply } from '../../fixtures/github/github-api.js';
import { issuesWithPullRequests, pullRequests, repositories } from '../../fixtures/github/github-repo-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_repoToolsTestToken0123456789';
const REPO = { owner: 'octo-org', repo: 'octo-repo' };

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('GitHub pull requests, issues and repositories (in-process, GitHub-shaped mock)', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: 'true', MCP_FENCE: 'false' }),
  });
  const json = (text: string): { data: unknown; nextPage?: number | null } => JSON.parse(text) as { data: unknown; nextPage?: number | null };

  describe('github_list_pull_requests', () => {
    it('sends the filters as GitHub names them, and pages with the Link header', async () => {
      const all = pullRequests(45);
      t.mock.on('GET', '/repos/octo-org/octo-repo/pulls', (req) => pagedArrayReply(req, all, '/repositories/1296269/pulls'));
      const args = {
        ...REPO,
        state: 'all',
        head: 'octocat:topic-1',
        base: 'main',
        sort: 'updated',
        direction: 'asc',
        perPage: 20,
        page: 2,
        jq: '[*].number',
        outputFormat: 'json',
      };
      const result = await t.kernel.call('github_list_pull_requests', args);
      expect(json(textOf(result))).to.deep.equal({ data: all.slice(20, 40).map((p) => p.number), nextPage: 3 });
      expect(result.structuredContent).to.deep.equal({ data: all.slice(20, 40).map((p) => p.number), nextPage: 3 });
      expect(Object.fromEntries(t.mock.requests[0]!.query)).to.deep.equal({
        state: 'all',
        head: 'octocat:topic-1',
        base: 'main',
        sort: 'updated',
        direction: 'asc',
        per_page: '20',
        page: '2',
      });
      expect(t.mock.requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    });

    it('gives nextPage null on the last page', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/pulls', (req) => pagedArrayReply(req, pullRequests(3), '/repositories/1296269/pulls'));
      const result = await t.kernel.call('github_list_pull_requests', { ...REPO, jq: '[*].head.ref', outputFormat: 'json' });
      expect(json(textOf(result))).to.deep.equal({ data: ['topic-1350', 'topic-1349', 'topic-1348'], nextPage: null });
    });
  });

  describe('github_list_issues', () => {
    it('leaves out the pull requests GitHub lists as issues, keeping nextPage', async () => {
      const all = issuesWithPullRequests(60);
      t.mock.on('GET', '/repos/octo-org/octo-repo/issues', (req) => pagedArrayReply(req, all, '/repositories/1296269/issues'));
      const result = await t.kernel.call('github_list_issues', { ...REPO, perPage: 30, jq: '[*].title', outputFormat: 'json' });
      const page = json(textOf(result));
      expect(page.nextPage).to.equal(2);
      expect(page.data).to.have.length(20);
      expect((page.data as string[]).every((title) => title.startsWith('Issue '))).to.equal(true);
    });

    it('keeps them with includePullRequests: true, and sends labels, assignee and since', async () => {
      const all = issuesWithPullRequests(6);
      t.mock.on('GET', '/repos/octo-org/octo-repo/issues', (req) => pagedArrayReply(req, all, '/repositories/1296269/issues'));
      const args = {
        ...REPO,
        state: 'closed',
        labels: 'bug,ui',
        assignee: 'octocat',
        since: '2026-10-01T00:00:00Z',
        includePullRequests: true,
        jq: '[*].title',
        outputFormat: 'json',
      };
      const page = json(textOf(await t.kernel.call('github_list_issues', args)));
      expect(page.data).to.deep.equal(all.map((i) => i.title));
      expect(Object.fromEntries(t.mock.requests[0]!.query)).to.deep.equal({
        state: 'closed',
        labels: 'bug,ui',
        assignee: 'octocat',
        since: '2026-10-01T00:00:00Z',
        per_page: '30',
        page: '1',
      });
    });
  });

  describe('github_get_pull_request and github_get_issue', () => {
    it('return the object as {data}, projected by jq', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/pulls/1347', { body: githubFixture('pull-request.json') });
      t.mock.on('GET', '/repos/octo-org/octo-repo/issues/1347', { body: githubFixture('issue.json') });
      const pr = await t.kernel.call('github_get_pull_request', {
        ...REPO,
        pullNumber: 1347,
        jq: '{title: title, head: head.ref, mergeable: mergeable}',
        outputFormat: 'json',
      });
      expect(JSON.parse(textOf(pr))).to.deep.equal({ title: 'Amazing new feature', head: 'new-topic', mergeable: true });
      expect(pr.structuredContent).to.deep.equal({ data: { title: 'Amazing new feature', head: 'new-topic', mergeable: true } });
      const issue = await t.kernel.call('github_get_issue', { ...REPO, issueNumber: 1347, jq: 'labels[*].name' });
      expect(textOf(issue)).to.equal('[1]: bug');
    });

    it("reports a pull request that does not exist with GitHub's 404", async () => {
      const result = await t.kernel.call('github_get_pull_request', { ...REPO, pullNumber: 99999 });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 404');
      expect(result.structuredContent).to.equal(undefined);
    });
  });

  describe('github_list_repositories', () => {
    it("lists an organization's repositories with the type filter", async () => {
      const all = repositories(35);
      t.mock.on('GET', '/orgs/octo-org/repos', (req) => pagedArrayReply(req, all, '/organizations/9919/repos'));
      const result = await t.kernel.call('github_list_repositories', {
        owner: 'octo-org',
        type: 'sources',
        perPage: 30,
        jq: 'length(@)',
        outputFormat: 'json',
      });
      expect(json(textOf(result))).to.deep.equal({ data: 30, nextPage: 2 });
      expect(t.mock.requests.map((r) => r.url)).to.deep.equal(['/orgs/octo-org/repos?type=sources&per_page=30&page=1']);
    });

    it("lists a user's repositories when the owner is not an organization", async () => {
      t.mock.on('GET', '/users/octocat/repos', (req) => pagedArrayReply(req, repositories(2), '/user/583231/repos'));
      const result = await t.kernel.call('github_list_repositories', { owner: 'octocat', jq: '[*].name', outputFormat: 'json' });
      expect(json(textOf(result))).to.deep.equal({ data: ['repo-1', 'repo-2'], nextPage: null });
      expect(t.mock.requests.map((r) => r.path)).to.deep.equal(['/orgs/octocat/repos', '/users/octocat/repos']);
    });

    it('asks for a user\'s list directly with type "owner", which only users\' lists take', async () => {
      t.mock.on('GET', '/users/octocat/repos', (req) => pagedArrayReply(req, repositories(2), '/user/583231/repos'));
      const result = await t.kernel.call('github_list_repositories', { owner: 'octocat', type: 'owner', jq: 'length(@)', outputFormat: 'json' });
      expect(json(textOf(result))).to.deep.equal({ data: 2, nextPage: null });
      expect(t.mock.requests.map((r) => r.url)).to.deep.equal(['/users/octocat/repos?type=owner&per_page=30&page=1']);
    });

    it('says which types a user takes when an organization-only type was asked of a user', async () => {
      const result = await t.kernel.call('github_list_repositories', { owner: 'octocat', type: 'forks' });
      expect(textOf(result)).to.match(
        /^Error: octocat is not an organization, so type "forks" does not apply: a user's repositories are listed by type all, owner or member\./,
      );
      expect(t.mock.requests.map((r) => r.path)).to.deep.equal(['/orgs/octocat/repos']);
    });

    it('reports an owner that is neither an organization nor a user', async () => {
      const result = await t.kernel.call('github_list_repositories', { owner: 'nobody-here' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('GET /users/nobody-here/repos');
    });
  });

  it('refuses an owner or repository that is not a GitHub name before any request', async () => {
    for (const [tool, args] of [
      ['github_list_pull_requests', { owner: '../evil', repo: 'x' }],
      ['github_get_issue', { owner: 'octo-org', repo: 'x/y', issueNumber: 1 }],
      ['github_list_repositories', { owner: 'a b' }],
    ] as const) {
      const result = await t.kernel.call(tool, args);
      expect(textOf(result), tool).to.contain('Code: invalid_arguments');
    }
    expect(t.mock.requests).to.have.length(0);
  });
});
