import { expect } from 'chai';
import { githubFixture, pagedListReply, workflowJobs } from '../../fixtures/github/github-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const JOBS_PATH = '/repos/octo-org/octo-repo/actions/runs/29679449/jobs';

describe('github_list_workflow_jobs (in-process, against a GitHub-shaped mock)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_jobsTestToken0123456789' }) });

  const call = (args: Record<string, unknown>) =>
    t.kernel.call('github_list_workflow_jobs', { owner: 'octo-org', repo: 'octo-repo', runId: 29679449, ...args });

  it("returns GitHub's real jobs page as {data, nextPage}", async () => {
    t.mock.on('GET', JOBS_PATH, { body: githubFixture('job-paginated.json') });
    const result = await call({ outputFormat: 'json' });
    expect(JSON.parse(textOf(result))).to.deep.equal({ data: githubFixture('job-paginated.json'), nextPage: null });
    expect(Object.fromEntries(t.mock.requests[0]!.query)).to.deep.equal({ per_page: '30', page: '1' });
  });

  it('passes filter and paging, and pages on through the Link header', async () => {
    const jobs = workflowJobs(45);
    t.mock.on('GET', JOBS_PATH, (req) => pagedListReply(req, { key: 'jobs', items: jobs, linkPath: '/repositories/1296269/actions/runs/29679449/jobs' }));
    const first = JSON.parse(textOf(await call({ filter: 'all', perPage: 20, jq: 'jobs[*].id', outputFormat: 'json' }))) as {
      data: number[];
      nextPage: number;
    };
    expect(first).to.deep.equal({ data: jobs.slice(0, 20).map((j) => j.id), nextPage: 2 });
    const last = JSON.parse(textOf(await call({ filter: 'all', perPage: 20, page: 3, jq: 'jobs[*].id', outputFormat: 'json' }))) as {
      data: number[];
      nextPage: null;
    };
    expect(last).to.deep.equal({ data: jobs.slice(40).map((j) => j.id), nextPage: null });
    expect(t.mock.requests.map((r) => Object.fromEntries(r.query))).to.deep.equal([
      { filter: 'all', per_page: '20', page: '1' },
      { filter: 'all', per_page: '20', page: '3' },
    ]);
  });

  it('projects failed jobs and their failed steps with jq, the way the description suggests', async () => {
    const page = githubFixture<{ jobs: Array<Record<string, unknown> & { steps: Array<Record<string, unknown>> }> }>('job-paginated.json');
    page.jobs[0]!.conclusion = 'failure';
    page.jobs[0]!.steps[2]!.conclusion = 'failure';
    t.mock.on('GET', JOBS_PATH, { body: page });
    const text = textOf(await call({ jq: "jobs[?conclusion=='failure'].{id: id, name: name, failedSteps: steps[?conclusion=='failure'].name}" }));
    expect(text).to.equal('nextPage: null\ndata[1]:\n  - id: 399444496\n    name: build\n    failedSteps[1]: Set up Ruby');
  });

  it('refuses a filter other than latest or all, without a request', async () => {
    const result = await call({ filter: 'everything' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('- filter: must be one of "latest", "all" (got "everything")');
    expect(t.mock.requests).to.have.length(0);
  });
});
