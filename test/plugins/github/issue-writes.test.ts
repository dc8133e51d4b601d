import { expect } from 'chai';
import { commentAnswer, githubError, issueAnswer, searchHits, searchReply } from '../../fixtures/github/github-write-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_issueWritesTestToken0123456789';
const REPO = { owner: 'octo-org', repo: 'octo-repo' };
const env = (structured: boolean) => (url: string) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: String(structured) });

describe('GitHub issue search and writes (in-process, GitHub-shaped mock)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: env(true) });
  const plain = useVendorKernel({ plugins: ['github'], env: env(false) });

  describe('github_search_issues', () => {
    it("sends the query as q with sort and order, and pages by GitHub's Link header", async () => {
      const hits = searchHits(45);
      t.mock.on('GET', '/search/issues', (req) => searchReply(req, hits));
      const args = { query: 'repo:octo-org/octo-repo is:issue is:open label:bug', sort: 'updated', order: 'asc', perPage: 20, page: 2 };
      const result = await t.kernel.call('github_search_issues', { ...args, jq: '{total: total_count, numbers: items[*].number}', outputFormat: 'json' });
      const page = { data: { total: 45, numbers: hits.slice(20, 40).map((h) => h.number) }, nextPage: 3 };
      expect(JSON.parse(textOf(result))).to.deep.equal(page);
      expect(result.structuredContent).to.deep.equal(page);
      const sent = t.mock.requests[0]!;
      expect(sent.method).to.equal('GET');
      expect(Object.fromEntries(sent.query)).to.deep.equal({ q: args.query, sort: 'updated', order: 'asc', per_page: '20', page: '2' });
      expect(sent.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    });

    it('sends 30 per page from page 1 when neither is given, and says the last page with nextPage null', async () => {
      plain.mock.on('GET', '/search/issues', (req) => searchReply(req, searchHits(3)));
      const result = await plain.kernel.call('github_search_issues', { query: 'is:pr author:octocat', jq: 'items[*].title' });
      expect(textOf(result)).to.equal('nextPage: null\ndata[3]: Flaky deploy step 1,Flaky deploy step 2,Flaky deploy step 3');
      expect(result.structuredContent).to.equal(undefined);
      expect(Object.fromEntries(plain.mock.requests[0]!.query)).to.deep.equal({ q: 'is:pr author:octocat', per_page: '30', page: '1' });
    });

    it("reports GitHub's 422 for a query it cannot parse, with GitHub's reason", async () => {
      t.mock.on(
        'GET',
        '/search/issues',
        githubError(422, 'Validation Failed', [
          { message: "Query must include 'is:issue' or 'is:pull-request'", resource: 'Search', field: 'q', code: 'invalid' },
        ]),
      );
      const result = await t.kernel.call('github_search_issues', { query: 'label:bug' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 422').and.contain("Query must include 'is:issue' or 'is:pull-request'");
    });
  });

  describe('github_create_issue', () => {
    it('POSTs title, body, labels and assignees, and answers with the number, state and web address', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/issues', (req) => ({ status: 201, body: issueAnswer(req, 1400) }));
      const result = await t.kernel.call('github_create_issue', {
        ...REPO,
        title: 'Deploy step flakes on main',
        body: 'Seen in run 30433642: `deploy` times out.',
        labels: ['bug', 'ci'],
        assignees: ['octocat'],
      });
      const made = {
        number: 1400,
        title: 'Deploy step flakes on main',
        state: 'open',
        labels: ['bug', 'ci'],
        assignees: ['octocat'],
        html_url: 'https://github.com/octo-org/octo-repo/issues/1400',
      };
      expect(result.structuredContent).to.deep.equal({ data: made });
      expect(textOf(result)).to.equal(
        'number: 1400\ntitle: Deploy step flakes on main\nstate: open\nlabels[2]: bug,ci\nassignees[1]: octocat\nhtml_url: "https://github.com/octo-org/octo-repo/issues/1400"',
      );
      const sent = t.mock.requests[0]!;
      expect(sent.method).to.equal('POST');
      expect(sent.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(sent.body)).to.deep.equal({
        title: 'Deploy step flakes on main',
        body: 'Seen in run 30433642: `deploy` times out.',
        labels: ['bug', 'ci'],
        assignees: ['octocat'],
      });
    });

    it('sends only the title when that is all that is given, and renders TOON with structured output off', async () => {
      plain.mock.on('POST', '/repos/octo-org/octo-repo/issues', (req) => ({ status: 201, body: issueAnswer(req, 1401) }));
      const result = await plain.kernel.call('github_create_issue', { ...REPO, title: 'Flaky test' });
      expect(JSON.parse(plain.mock.requests[0]!.body)).to.deep.equal({ title: 'Flaky test' });
      expect(result.structuredContent).to.equal(undefined);
      expect(textOf(result)).to.equal(
        'number: 1401\ntitle: Flaky test\nstate: open\nlabels[1]: bug\nassignees[1]: octocat\nhtml_url: "https://github.com/octo-org/octo-repo/issues/1401"',
      );
    });

    it("reports 403 (no permission), 404 (no such repository) and 410 (issues disabled) with GitHub's message", async () => {
      for (const [status, message] of [
        [403, 'Resource not accessible by personal access token'],
        [404, 'Not Found'],
        [410, 'Issues are disabled for this repo'],
      ] as const) {
        t.mock.reset();
        t.mock.on('POST', '/repos/octo-org/octo-repo/issues', githubError(status, message));
        const result = await t.kernel.call('github_create_issue', { ...REPO, title: 'x' });
        expect(result.isError, String(status)).to.equal(true);
        expect(textOf(result)).to.contain(`HTTP Status: ${status}`).and.contain(message);
        expect(result.structuredContent).to.equal(undefined);
      }
    });

    it('says which setting to check when GitHub refuses the token (401)', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/issues', githubError(401, 'Bad credentials'));
      const result = await t.kernel.call('github_create_issue', { ...REPO, title: 'x' });
      expect(textOf(result)).to.match(
        /^Error: GitHub answered 401 Unauthorized for POST \/repos\/octo-org\/octo-repo\/issues\. The credentials were not accepted: check GITHUB_TOKEN/,
      );
      expect(textOf(result)).not.to.contain(TOKEN);
    });

    it('refuses a missing title or an unknown argument before any request', async () => {
      for (const args of [{ ...REPO }, { ...REPO, title: 'x', label: 'bug' }, { ...REPO, title: '' }]) {
        const result = await t.kernel.call('github_create_issue', args);
        expect(textOf(result), JSON.stringify(args)).to.contain('Code: invalid_arguments');
      }
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('github_update_issue', () => {
    it('PATCHes only the fields given, in GitHub names, and says which changed', async () => {
      t.mock.on('PATCH', '/repos/octo-org/octo-repo/issues/1347', (req) => ({ body: issueAnswer(req) }));
      const result = await t.kernel.call('github_update_issue', { ...REPO, issueNumber: 1347, state: 'closed', stateReason: 'not_planned', labels: [] });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ state: 'closed', state_reason: 'not_planned', labels: [] });
      expect(result.structuredContent).to.deep.equal({
        data: {
          number: 1347,
          title: 'Found a bug',
          state: 'closed',
          state_reason: 'not_planned',
          labels: [],
          assignees: ['octocat'],
          html_url: 'https://github.com/octo-org/octo-repo/issues/1347',
          changed: ['state', 'state_reason', 'labels'],
        },
      });
    });

    it('sends an empty edit when no field is given, and says that nothing changed', async () => {
      t.mock.on('PATCH', '/repos/octo-org/octo-repo/issues/1347', (req) => ({ body: issueAnswer(req) }));
      const result = await t.kernel.call('github_update_issue', { ...REPO, issueNumber: 1347 });
      expect(t.mock.requests[0]!.body).to.equal('{}');
      expect((result.structuredContent as { data: { changed: string[]; state: string } }).data).to.deep.include({ changed: [], state: 'open' });
    });

    it("reports GitHub's 422 for a value it refuses, with the field", async () => {
      t.mock.on(
        'PATCH',
        '/repos/octo-org/octo-repo/issues/1347',
        githubError(422, 'Validation Failed', [{ resource: 'Issue', field: 'assignees', code: 'invalid', value: 'ghost' }]),
      );
      const result = await t.kernel.call('github_update_issue', { ...REPO, issueNumber: 1347, assignees: ['ghost'] });
      expect(textOf(result)).to.contain('HTTP Status: 422').and.contain('"field": "assignees"');
    });
  });

  describe('github_add_comment', () => {
    it("POSTs the body to the issue's comments and answers with the comment's id and address", async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/issues/1347/comments', (req) => ({ status: 201, body: commentAnswer(req, 1347) }));
      const result = await t.kernel.call('github_add_comment', {
        ...REPO,
        issueNumber: 1347,
        body: 'Rerun is green: https://github.com/octo-org/octo-repo/actions/runs/30433642',
      });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ body: 'Rerun is green: https://github.com/octo-org/octo-repo/actions/runs/30433642' });
      expect(result.structuredContent).to.deep.equal({
        data: {
          id: 1962441031,
          issue_number: 1347,
          html_url: 'https://github.com/octo-org/octo-repo/issues/1347#issuecomment-1962441031',
          created_at: '2011-04-14T16:00:49Z',
        },
      });
    });

    it('reports a locked conversation (403) and an issue that does not exist (404)', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/issues/1347/comments', githubError(403, 'Unable to create comment because issue is locked.'));
      const locked = await t.kernel.call('github_add_comment', { ...REPO, issueNumber: 1347, body: 'x' });
      expect(textOf(locked)).to.contain('HTTP Status: 403').and.contain('issue is locked');
      const missing = await t.kernel.call('github_add_comment', { ...REPO, issueNumber: 99999, body: 'x' });
      expect(textOf(missing)).to.contain('HTTP Status: 404').and.contain('POST /repos/octo-org/octo-repo/issues/99999/comments');
    });

    it('refuses an empty body before any request', async () => {
      const result = await t.kernel.call('github_add_comment', { ...REPO, issueNumber: 1347, body: '' });
      expect(textOf(result)).to.contain('Code: invalid_arguments');
      expect(t.mock.requests).to.have.length(0);
    });
  });
});
