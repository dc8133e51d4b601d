import { actionsHistory, failuresPerJob, GITHUB_REPO, mountGithubActions, rankCounts } from '../vendors/github-actions.js';
import { programSource, once, type Task } from './task.js';

/** The last N runs on main: 300 runs, 10 pages at GitHub's default 30 a page. */
export const RUNS = 300;

export interface FailingJobsAnswer {
  runs: number;
  failedRuns: number;
  ranking: Array<{ job: string; failures: number }>;
}

const history = once(actionsHistory);

/** Task 1: which jobs failed most often on `main` over the last 300 runs (GitHub Actions). */
export const failingJobsTask: Task<FailingJobsAnswer> = {
  id: 'failing-jobs',
  question: `Which jobs of octo-org/octo-repo failed most often on main over the last ${RUNS} workflow runs?`,
  search: { query: 'list workflow runs jobs' },
  mount: (mock) => mountGithubActions(mock, history()),

  async direct(agent) {
    // Page through the runs on main, keeping only id and conclusion of each (as the tool description advises).
    const runs: Array<{ id: number; conclusion: string | null }> = [];
    for (let page: number | null = 1; page !== null && runs.length < RUNS; ) {
      const result = (await agent.call('github_list_workflow_runs', { ...GITHUB_REPO, branch: 'main', page, jq: 'workflow_runs[*].{id: id, conclusion: conclusion}' })) as {
        data: typeof runs;
        nextPage: number | null;
      };
      runs.push(...result.data);
      page = result.nextPage;
    }
    // Then, in one turn, the names of the failed jobs of every failed run.
    const failed = runs.slice(0, RUNS).filter((run) => run.conclusion === 'failure');
    const pages = (await agent.turn(
      failed.map((run) => ({ tool: 'github_list_workflow_jobs', args: { ...GITHUB_REPO, runId: run.id, jq: "jobs[?conclusion=='failure'].name" } })),
    )) as Array<{ data: string[] }>;
    const counts = new Map<string, number>();
    for (const name of pages.flatMap((p) => p.data)) counts.set(name, (counts.get(name) ?? 0) + 1);
    return { runs: Math.min(RUNS, runs.length), failedRuns: failed.length, ranking: rankCounts(counts) };
  },

  program: () => programSource('failing-jobs'),

  expected() {
    const onMain = history().runs.filter((run) => run.head_branch === 'main').slice(0, RUNS);
    return { runs: onMain.length, failedRuns: onMain.filter((run) => run.conclusion === 'failure').length, ranking: failuresPerJob(history(), RUNS) };
  },
};
