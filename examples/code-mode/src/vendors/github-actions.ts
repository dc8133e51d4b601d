import type { MockUpstream, RecordedRequest } from 'mcp-devtools/build/server/testing/mock-upstream.js';
import { githubFixture, pagedListReply, workflowRuns, type Job, type Run } from 'mcp-devtools/build/test/fixtures/github/github-api.js';
import { SeededRandom } from './seeded-random.js';

export const GITHUB_REPO = { owner: 'octo-org', repo: 'octo-repo' } as const;
const REPO_ID = 1296269;

/** The jobs of the CI workflow, in the order GitHub lists them; build-image needs every test job. */
export const CI_JOBS = ['lint', 'typecheck', 'unit-tests (node 20)', 'unit-tests (node 22)', 'integration-tests', 'e2e (chromium)', 'build-image'] as const;

// How often each job is the one that breaks a failed run: flaky end-to-end tests first, as in most projects.
const BREAKS: ReadonlyArray<readonly [string, number]> = [
  ['e2e (chromium)', 34],
  ['integration-tests', 24],
  ['unit-tests (node 22)', 14],
  ['unit-tests (node 20)', 9],
  ['lint', 8],
  ['typecheck', 7],
  ['build-image', 4],
];

/** A repository's Actions history: runs newest first, and each run's jobs. */
export interface ActionsHistory {
  runs: Run[];
  jobs: Map<number, Job[]>;
}

/**
 * 345 runs of the CI workflow, newest first: 300 on main and 45 on feature branches between them. On main about
 * a fifth fail (one or two broken jobs, build-image skipped after a broken test) and a few are cancelled. Each
 * run and job is GitHub's real example payload with its own ids, branch, conclusion and steps.
 */
export function actionsHistory(): ActionsHistory {
  const random = new SeededRandom(0x61c7);
  const jobTemplate = githubFixture<Job>('job.json');
  const jobs = new Map<number, Job[]>();
  const runs = workflowRuns(345).map((run, i) => {
    const onMain = ![5, 11, 17].includes(i % 23);
    const branch = onMain ? 'main' : `feature/checkout-${100 + i}`;
    const conclusion = random.weighted<string>([['failure', onMain ? 21 : 35], ['cancelled', 3], ['success', onMain ? 76 : 62]]);
    const sha = (run.id * 2654435761).toString(16).padStart(40, 'a').slice(-40);
    jobs.set(run.id, jobsOf(run.id, conclusion, random, jobTemplate, branch, sha));
    return { ...run, head_branch: branch, head_sha: sha, status: 'completed', conclusion, display_title: `CI on ${branch} #${run.run_number}`, event: onMain ? 'push' : 'pull_request' };
  });
  return { runs, jobs };
}

function jobsOf(runId: number, conclusion: string, random: SeededRandom, template: Job, branch: string, sha: string): Job[] {
  const broken = new Set<string>();
  if (conclusion === 'failure') {
    broken.add(random.weighted(BREAKS));
    if (random.chance(0.3)) broken.add(random.weighted(BREAKS));
  }
  const testsBroken = [...broken].some((name) => name !== 'build-image');
  return CI_JOBS.map((name, i) => {
    const id = runId * 10 + i;
    let jobConclusion = broken.has(name) ? 'failure' : 'success';
    if (name === 'build-image' && testsBroken) jobConclusion = 'skipped';
    if (conclusion === 'cancelled' && i >= 4) jobConclusion = 'cancelled';
    const steps = (template.steps as Array<Record<string, unknown>>).map((step) =>
      step.name === 'Run Tests' ? { ...step, conclusion: jobConclusion } : step,
    );
    return {
      ...structuredClone(template),
      id,
      run_id: runId,
      run_url: `https://api.github.com/repos/octo-org/octo-repo/actions/runs/${runId}`,
      url: `https://api.github.com/repos/octo-org/octo-repo/actions/jobs/${id}`,
      html_url: `https://github.com/octo-org/octo-repo/actions/runs/${runId}/job/${id}`,
      check_run_url: `https://api.github.com/repos/octo-org/octo-repo/check-runs/${id}`,
      head_sha: sha,
      head_branch: branch,
      name,
      conclusion: jobConclusion,
      steps,
    };
  });
}

/** GitHub's list endpoints for this history, with its filters (branch, status, event) and Link paging. */
export function mountGithubActions(mock: MockUpstream, history: ActionsHistory): void {
  const { owner, repo } = GITHUB_REPO;
  mock.on('GET', `/repos/${owner}/${repo}/actions/runs`, (request) =>
    pagedListReply(request, { key: 'workflow_runs', items: history.runs.filter((run) => matches(run, request)), linkPath: `/repositories/${REPO_ID}/actions/runs` }),
  );
  mock.on('GET', `/repos/${owner}/${repo}/actions/runs/:runId/jobs`, (request) => {
    const jobs = history.jobs.get(Number(request.params.runId));
    if (jobs === undefined) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/actions/workflow-jobs#list-jobs-for-a-workflow-run', status: '404' } };
    return pagedListReply(request, { key: 'jobs', items: jobs, linkPath: `/repositories/${REPO_ID}/actions/runs/${request.params.runId}/jobs` });
  });
}

function matches(run: Run, request: RecordedRequest): boolean {
  const { query } = request;
  const branch = query.get('branch');
  const status = query.get('status');
  const event = query.get('event');
  return (branch === null || run.head_branch === branch) && (status === null || run.status === status || run.conclusion === status) && (event === null || run.event === event);
}

/** The truth for task 1: failures per job over the last `count` runs on main, most failures first. */
export function failuresPerJob(history: ActionsHistory, count: number): Array<{ job: string; failures: number }> {
  const counts = new Map<string, number>();
  for (const run of history.runs.filter((r) => r.head_branch === 'main').slice(0, count)) {
    for (const job of history.jobs.get(run.id) ?? []) if (job.conclusion === 'failure') counts.set(String(job.name), (counts.get(String(job.name)) ?? 0) + 1);
  }
  return rankCounts(counts);
}

/** Counts as `{job, failures}`, most first, ties by name: the one order both ways of task 1 print. */
export function rankCounts(counts: ReadonlyMap<string, number>): Array<{ job: string; failures: number }> {
  return [...counts].map(([job, failures]) => ({ job, failures })).sort((a, b) => b.failures - a.failures || a.job.localeCompare(b.job));
}
