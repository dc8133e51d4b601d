import { expect } from 'chai';
import type { MockReply, RecordedRequest } from '../../../server/testing/mock-upstream.js';
import { githubFixture, jobLog } from '../../fixtures/github/github-api.js';
import { fileEntry, pullRequestDiff } from '../../fixtures/github/github-repo-api.js';
import {
  checkRuns,
  checkRunsReply,
  commentAnswer,
  issueAnswer,
  pullRequestAnswer,
  reviewAnswer,
  searchHits,
  searchReply,
} from '../../fixtures/github/github-write-api.js';
import { GithubOpenApi, type RequestVerdict } from '../../support/github-openapi.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const REPO = { owner: 'octo-org', repo: 'octo-repo' };

interface Case {
  tool: string;
  args: Record<string, unknown>;
  /** The mock's answer: method, path (`:name` segments) and reply, as GitHub would give it. */
  answers: Array<[string, string, MockReply | ((request: RecordedRequest) => MockReply)]>;
  /** The operation's path template, to check the answer's body against its response schema too. */
  response?: { template: string; status: number };
}

/** One call of every typed GitHub tool, every argument that reaches the request given. */
const CASES: Case[] = [
  {
    tool: 'github_list_workflow_runs',
    args: {
      ...REPO,
      workflowId: 'ci.yml',
      branch: 'main',
      status: 'failure',
      event: 'push',
      actor: 'octocat',
      created: '>=2026-11-01',
      headSha: 'acb5820ced9479c074f688cc328bf03f341a511d',
      perPage: 5,
      page: 2,
    },
    answers: [['GET', '/repos/octo-org/octo-repo/actions/workflows/ci.yml/runs', { body: githubFixture('workflow-run-paginated.json') }]],
  },
  {
    tool: 'github_list_workflow_runs',
    args: { ...REPO },
    answers: [['GET', '/repos/octo-org/octo-repo/actions/runs', { body: githubFixture('workflow-run-paginated.json') }]],
  },
  {
    tool: 'github_list_workflow_jobs',
    args: { ...REPO, runId: 29679449, filter: 'all', perPage: 10, page: 1 },
    answers: [['GET', '/repos/octo-org/octo-repo/actions/runs/29679449/jobs', { body: githubFixture('job-paginated.json') }]],
  },
  {
    tool: 'github_get_job_logs',
    args: { ...REPO, jobId: 399444496, tailLines: 5 },
    answers: [['GET', '/repos/octo-org/octo-repo/actions/jobs/399444496/logs', { headers: { 'content-type': 'text/plain' }, body: jobLog() }]],
  },
  {
    tool: 'github_list_pull_requests',
    args: { ...REPO, state: 'all', head: 'octocat:new-topic', base: 'main', sort: 'updated', direction: 'asc', perPage: 3, page: 1 },
    answers: [['GET', '/repos/octo-org/octo-repo/pulls', { body: [githubFixture('pull-request.json')] }]],
  },
  {
    tool: 'github_list_issues',
    args: { ...REPO, state: 'closed', labels: 'bug,ui', assignee: 'octocat', since: '2026-10-01T00:00:00Z', perPage: 3, page: 1 },
    answers: [['GET', '/repos/octo-org/octo-repo/issues', { body: [githubFixture('issue.json')] }]],
  },
  {
    tool: 'github_get_pull_request',
    args: { ...REPO, pullNumber: 1347 },
    answers: [['GET', '/repos/octo-org/octo-repo/pulls/1347', { body: githubFixture('pull-request.json') }]],
  },
  {
    tool: 'github_get_pull_request_diff',
    args: { ...REPO, pullNumber: 1347 },
    answers: [['GET', '/repos/octo-org/octo-repo/pulls/1347', { headers: { 'content-type': 'text/plain' }, body: pullRequestDiff(2) }]],
  },
  {
    tool: 'github_get_issue',
    args: { ...REPO, issueNumber: 1347 },
    answers: [['GET', '/repos/octo-org/octo-repo/issues/1347', { body: githubFixture('issue.json') }]],
  },
  {
    tool: 'github_get_file',
    args: { ...REPO, path: 'src/index.ts', ref: 'main' },
    answers: [['GET', '/repos/octo-org/octo-repo/contents/src/index.ts', { body: fileEntry('src/index.ts', 'export {};\n') }]],
  },
  {
    // An owner that is not an organization: the user's repositories, the second request.
    tool: 'github_list_repositories',
    args: { owner: 'octocat', type: 'owner', perPage: 10, page: 1 },
    answers: [['GET', '/users/octocat/repos', { body: [githubFixture('repository.json')] }]],
  },
  {
    tool: 'github_search_issues',
    args: { query: 'repo:octo-org/octo-repo is:issue is:open', sort: 'comments', order: 'desc', perPage: 5, page: 1 },
    answers: [['GET', '/search/issues', (req) => searchReply(req, searchHits(7))]],
    response: { template: '/search/issues', status: 200 },
  },
  {
    tool: 'github_list_check_runs',
    args: { ...REPO, ref: 'feature/retry-deploy', perPage: 5, page: 1 },
    answers: [['GET', '/repos/octo-org/octo-repo/commits/:ref/check-runs', (req) => checkRunsReply(req, checkRuns([{ name: 'build', status: 'completed' }]))]],
    response: { template: '/repos/{owner}/{repo}/commits/{ref}/check-runs', status: 200 },
  },
  {
    tool: 'github_create_issue',
    args: { ...REPO, title: 'Deploy flakes', body: 'Seen twice.', labels: ['bug'], assignees: ['octocat'] },
    answers: [['POST', '/repos/octo-org/octo-repo/issues', (req) => ({ status: 201, body: issueAnswer(req, 1400) })]],
    response: { template: '/repos/{owner}/{repo}/issues', status: 201 },
  },
  {
    tool: 'github_update_issue',
    args: {
      ...REPO,
      issueNumber: 1347,
      title: 'Deploy flakes on main',
      body: 'Seen three times.',
      state: 'closed',
      stateReason: 'completed',
      labels: ['bug'],
      assignees: [],
    },
    answers: [['PATCH', '/repos/octo-org/octo-repo/issues/1347', (req) => ({ body: issueAnswer(req) })]],
    response: { template: '/repos/{owner}/{repo}/issues/{issue_number}', status: 200 },
  },
  {
    tool: 'github_add_comment',
    args: { ...REPO, issueNumber: 1347, body: 'Fixed by #1348.' },
    answers: [['POST', '/repos/octo-org/octo-repo/issues/1347/comments', (req) => ({ status: 201, body: commentAnswer(req, 1347) })]],
    response: { template: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: 201 },
  },
  {
    tool: 'github_create_pull_request',
    args: { ...REPO, title: 'Retry the deploy step', head: 'octocat:fix-deploy', base: 'main', body: 'Fixes #1400', draft: false },
    answers: [['POST', '/repos/octo-org/octo-repo/pulls', (req) => ({ status: 201, body: pullRequestAnswer(req) })]],
  },
  {
    tool: 'github_create_review',
    args: { ...REPO, pullNumber: 1347, event: 'COMMENT', body: 'Two notes.', comments: [{ path: 'deploy/run.sh', line: 12, body: 'Retry here.' }] },
    answers: [['POST', '/repos/octo-org/octo-repo/pulls/1347/reviews', (req) => ({ body: reviewAnswer(req, 1347) })]],
    response: { template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', status: 200 },
  },
  {
    tool: 'github_merge_pull_request',
    args: { ...REPO, pullNumber: 1347, method: 'squash' },
    answers: [['PUT', '/repos/octo-org/octo-repo/pulls/1347/merge', { body: githubFixture('pull-request-merge-result.json') }]],
    response: { template: '/repos/{owner}/{repo}/pulls/{pull_number}/merge', status: 200 },
  },
  {
    tool: 'github_rerun_workflow',
    args: { ...REPO, runId: 30433642 },
    answers: [['POST', '/repos/octo-org/octo-repo/actions/runs/30433642/rerun-failed-jobs', { status: 201, body: {} }]],
    response: { template: '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs', status: 201 },
  },
  {
    tool: 'github_rerun_workflow',
    args: { ...REPO, runId: 30433642, failedOnly: false },
    answers: [['POST', '/repos/octo-org/octo-repo/actions/runs/30433642/rerun', { status: 201, body: {} }]],
  },
  {
    tool: 'github_cancel_workflow_run',
    args: { ...REPO, runId: 30433642 },
    answers: [['POST', '/repos/octo-org/octo-repo/actions/runs/30433642/cancel', { status: 202, body: {} }]],
    response: { template: '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel', status: 202 },
  },
  {
    tool: 'github_dispatch_workflow',
    args: { ...REPO, workflowId: 'deploy.yml', ref: 'main', inputs: { environment: 'staging', dryRun: true } },
    answers: [['POST', '/repos/octo-org/octo-repo/actions/workflows/deploy.yml/dispatches', { status: 204 }]],
  },
];

describe("GitHub requests are operations of GitHub's published OpenAPI description (@octokit/openapi)", () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_openApiTestToken0123456789' }) });
  let api: GithubOpenApi;
  before(function () {
    this.timeout(60_000);
    api = GithubOpenApi.load();
  });

  /** Calls a tool as the case says and judges every request it sent. */
  const judged = async (c: Case): Promise<RequestVerdict[]> => {
    for (const [method, path, reply] of c.answers) t.mock.on(method, path, reply);
    const result = await t.kernel.call(c.tool, c.args);
    expect(result.isError, `${c.tool}: ${textOf(result)}`).to.equal(undefined);
    expect(t.mock.requests, c.tool).to.not.have.length(0);
    return t.mock.requests.map((r) => api.check(r));
  };

  for (const c of CASES) {
    it(`${c.tool} ${JSON.stringify(c.args)}`, async () => {
      const verdicts = await judged(c);
      for (const verdict of verdicts) {
        expect(verdict.problems, `${verdict.request} (${verdict.operationId ?? 'no operation'})`).to.deep.equal([]);
        expect(verdict.operationId).to.be.a('string');
      }
      // The mock's answer is GitHub's documented shape for that operation, so the result above is what GitHub would give.
      if (c.response !== undefined) {
        const last = t.mock.requests.at(-1)!;
        const [, , reply] = c.answers.at(-1)!;
        const body = (typeof reply === 'function' ? reply(last) : reply).body;
        expect(api.responseProblems(last.method, c.response.template, c.response.status, body), `${c.tool} answer`).to.equal(undefined);
      }
    });
  }

  // github_graphql speaks GraphQL, which the REST description does not hold: graphql.test.ts runs its documents on
  // a slice of GitHub's GraphQL schema instead.
  it('covers every typed GitHub tool that tools/list serves (the passthroughs github_get and github_graphql aside)', async () => {
    const client = await t.kernel.connect();
    const served = (await client.listTools()).tools
      .map((tool) => tool.name)
      .filter((name) => name.startsWith('github_') && name !== 'github_get' && name !== 'github_graphql');
    expect([...new Set(CASES.map((c) => c.tool))].sort()).to.deep.equal(served.sort());
  });

  describe('the check fails a request that departs from the description', () => {
    it('an undeclared query parameter, sent for real through github_get', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/pulls', { body: [] });
      await t.kernel.call('github_get', { path: '/repos/octo-org/octo-repo/pulls', queryParams: { per_page: 5, labels: 'bug' } });
      const verdict = api.check(t.mock.requests[0]!);
      expect(verdict.operationId).to.equal('pulls/list');
      expect(verdict.problems).to.deep.equal(['query parameter "labels" is not declared by pulls/list (/repos/{owner}/{repo}/pulls)']);
    });

    it('a query value outside the declared enum, a body without a required field, a path no operation has', async () => {
      const sent = async (method: string, path: string, body?: unknown): Promise<RequestVerdict> => {
        t.mock.reset();
        await fetch(`${t.mock.url}${path}`, {
          method,
          ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        });
        return api.check(t.mock.requests[0]!);
      };
      expect((await sent('GET', '/search/issues?q=is%3Aissue&sort=best-match')).problems.join('\n')).to.match(
        /^query parameter sort "best-match": .*must be equal to one of the allowed values/,
      );
      expect((await sent('POST', '/repos/octo-org/octo-repo/issues', { body: 'no title' })).problems).to.deep.equal([
        "body: data must have required property 'title'",
      ]);
      expect((await sent('PUT', '/repos/octo-org/octo-repo/pulls/1347/merge', { merge_method: 'fast-forward' })).problems.join('\n')).to.match(
        /^body: data\/merge_method must be equal to one of the allowed values/,
      );
      expect((await sent('POST', '/repos/octo-org/octo-repo/issues/1347/merge')).problems).to.deep.equal([
        "no operation of GitHub's description is POST on a path like /repos/octo-org/octo-repo/issues/1347/merge",
      ]);
      expect((await sent('POST', '/repos/octo-org/octo-repo/actions/runs/abc/cancel')).problems.join('\n')).to.match(
        /^path parameter run_id "abc": .*must be integer/,
      );
    });
  });
});
