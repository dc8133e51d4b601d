import { expect } from 'chai';
import { githubFixture } from '../../fixtures/github/github-api.js';
import { githubError, pullRequestAnswer, reviewAnswer } from '../../fixtures/github/github-write-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_pullWritesTestToken0123456789';
const REPO = { owner: 'octo-org', repo: 'octo-repo' };
const MERGE_PATH = '/repos/octo-org/octo-repo/pulls/1347/merge';
const env = (structured: boolean) => (url: string) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: String(structured) });

describe('GitHub pull request writes (in-process, GitHub-shaped mock)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: env(true) });
  const plain = useVendorKernel({ plugins: ['github'], env: env(false) });

  describe('github_create_pull_request', () => {
    it('POSTs title, head, base, body and draft, and answers with the number, branches and address', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/pulls', (req) => ({ status: 201, body: pullRequestAnswer(req) }));
      const args = { ...REPO, title: 'Retry the deploy step', head: 'octocat:fix-deploy', base: 'main', body: 'Fixes #1400', draft: true };
      const result = await t.kernel.call('github_create_pull_request', args);
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({
        title: 'Retry the deploy step',
        head: 'octocat:fix-deploy',
        base: 'main',
        body: 'Fixes #1400',
        draft: true,
      });
      expect(result.structuredContent).to.deep.equal({
        data: {
          number: 1348,
          title: 'Retry the deploy step',
          state: 'open',
          draft: true,
          head: 'octocat:fix-deploy',
          base: 'octo-org:main',
          html_url: 'https://github.com/octo-org/octo-repo/pull/1348',
        },
      });
    });

    it("reports GitHub's 422 when head and base have nothing between them", async () => {
      plain.mock.on(
        'POST',
        '/repos/octo-org/octo-repo/pulls',
        githubError(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and fix-deploy' }]),
      );
      const result = await plain.kernel.call('github_create_pull_request', { ...REPO, title: 'x', head: 'fix-deploy', base: 'main' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 422').and.contain('No commits between main and fix-deploy');
      expect(JSON.parse(plain.mock.requests[0]!.body)).to.deep.equal({ title: 'x', head: 'fix-deploy', base: 'main' });
    });
  });

  describe('github_create_review', () => {
    it('POSTs the event, body and line comments, and answers with the review state', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/pulls/1347/reviews', (req) => ({ body: reviewAnswer(req, 1347) }));
      const comments = [{ path: 'deploy/run.sh', line: 12, body: 'Retry here, not in the caller.' }];
      const result = await t.kernel.call('github_create_review', { ...REPO, pullNumber: 1347, event: 'REQUEST_CHANGES', body: 'One change first.', comments });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ event: 'REQUEST_CHANGES', body: 'One change first.', comments });
      expect(result.structuredContent).to.deep.equal({
        data: {
          id: 80,
          pull_number: 1347,
          state: 'CHANGES_REQUESTED',
          comments: 1,
          html_url: 'https://github.com/octo-org/octo-repo/pull/1347#pullrequestreview-80',
          submitted_at: '2019-11-17T17:43:43Z',
        },
      });
    });

    it('approves with no body, rendered as TOON with structured output off', async () => {
      plain.mock.on('POST', '/repos/octo-org/octo-repo/pulls/1347/reviews', (req) => ({ body: reviewAnswer(req, 1347) }));
      const result = await plain.kernel.call('github_create_review', { ...REPO, pullNumber: 1347, event: 'APPROVE' });
      expect(JSON.parse(plain.mock.requests[0]!.body)).to.deep.equal({ event: 'APPROVE' });
      expect(textOf(result)).to.match(/^id: 80\npull_number: 1347\nstate: APPROVED\ncomments: 0\n/);
      expect(result.structuredContent).to.equal(undefined);
    });

    it('refuses an unknown event before any request', async () => {
      const result = await t.kernel.call('github_create_review', { ...REPO, pullNumber: 1347, event: 'PENDING' });
      expect(textOf(result))
        .to.contain('- event: must be one of "APPROVE", "REQUEST_CHANGES", "COMMENT" (got "PENDING")')
        .and.contain('Code: invalid_arguments');
      expect(t.mock.requests).to.have.length(0);
    });

    it('leaves a REQUEST_CHANGES review without a body to GitHub, whose 422 says what is missing', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/pulls/1347/reviews', githubError(422, 'Unprocessable Entity', [{ message: "Body can't be blank" }]));
      const result = await t.kernel.call('github_create_review', { ...REPO, pullNumber: 1347, event: 'REQUEST_CHANGES' });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ event: 'REQUEST_CHANGES' });
      expect(textOf(result)).to.contain('HTTP Status: 422').and.contain("Body can't be blank");
    });

    it("reports GitHub's 422 for a comment on a line outside the diff", async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/pulls/1347/reviews', githubError(422, 'Unprocessable Entity', [{ message: 'Line could not be resolved' }]));
      const result = await t.kernel.call('github_create_review', {
        ...REPO,
        pullNumber: 1347,
        event: 'COMMENT',
        body: 'x',
        comments: [{ path: 'a.ts', line: 900, body: 'y' }],
      });
      expect(textOf(result)).to.contain('HTTP Status: 422').and.contain('Line could not be resolved');
    });
  });

  describe('github_merge_pull_request', () => {
    it('PUTs the merge method and answers with merged, the sha and the method', async () => {
      t.mock.on('PUT', MERGE_PATH, { body: githubFixture('pull-request-merge-result.json') });
      const result = await t.kernel.call('github_merge_pull_request', { ...REPO, pullNumber: 1347, method: 'squash' });
      expect(t.mock.requests[0]!.method).to.equal('PUT');
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ merge_method: 'squash' });
      expect(result.structuredContent).to.deep.equal({
        data: {
          pull_number: 1347,
          merged: true,
          sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
          method: 'squash',
          message: 'Pull Request successfully merged',
          html_url: `${t.mock.url}/octo-org/octo-repo/pull/1347`,
        },
      });
    });

    it("sends no method when none is given, leaving GitHub's default (a merge commit)", async () => {
      t.mock.on('PUT', MERGE_PATH, { body: githubFixture('pull-request-merge-result.json') });
      const result = await t.kernel.call('github_merge_pull_request', { ...REPO, pullNumber: 1347 });
      expect(t.mock.requests[0]!.body).to.equal('{}');
      expect((result.structuredContent as { data: { method: string } }).data.method).to.equal('merge');
    });

    it("turns 405 (not mergeable) into an error that says where to look, keeping GitHub's message", async () => {
      t.mock.on('PUT', MERGE_PATH, githubError(405, 'Pull Request is not mergeable'));
      const result = await t.kernel.call('github_merge_pull_request', { ...REPO, pullNumber: 1347 });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.match(
        /^Error: Pull request #1347 of octo-org\/octo-repo was not merged: GitHub cannot merge it as it is\. Look at its mergeable_state with github_get_pull_request .* GitHub said: "Pull Request is not mergeable"\./,
      );
      expect(textOf(result)).to.contain('github_list_check_runs').and.contain('HTTP Status: 405').and.contain('Code: upstream_http_error');
    });

    it('turns 409 (head changed) into an error that says to read it again and retry', async () => {
      t.mock.on('PUT', MERGE_PATH, githubError(409, 'Head branch was modified. Review and try the merge again.'));
      const result = await t.kernel.call('github_merge_pull_request', { ...REPO, pullNumber: 1347, method: 'rebase' });
      expect(textOf(result)).to.match(
        /^Error: Pull request #1347 of octo-org\/octo-repo was not merged: its head or base branch changed while merging\. Read it again with github_get_pull_request, check the new commits, then merge again\. GitHub said: "Head branch was modified\. Review and try the merge again\."/,
      );
      expect(textOf(result)).to.contain('HTTP Status: 409');
    });

    it('leaves other refusals as they are (403: not allowed to merge)', async () => {
      t.mock.on('PUT', MERGE_PATH, githubError(403, 'Must have admin rights to Repository.'));
      const result = await t.kernel.call('github_merge_pull_request', { ...REPO, pullNumber: 1347 });
      expect(textOf(result)).to.match(/^Error: GitHub answered 403 Forbidden for PUT \/repos\/octo-org\/octo-repo\/pulls\/1347\/merge\. /);
      expect(textOf(result)).to.contain('Must have admin rights to Repository.');
    });
  });
});
