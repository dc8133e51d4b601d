import { actionsHistory, GITHUB_REPO, mountGithubActions } from '../vendors/github-actions.js';
import { programSource, once, type Task } from './task.js';

/** The failed runs looked at: the last 20 on main. */
export const FAILED_RUNS = 20;

export type RepeatFailuresAnswer = Array<{ runId: number; jobs: string[] }>;

const history = once(actionsHistory);

/** The failed jobs each run has in common with the failed run before it (the next older one), where there are any. */
export function repeats(runs: ReadonlyArray<{ id: number; failedJobs: readonly string[] }>): RepeatFailuresAnswer {
  return runs
    .slice(0, -1)
    .map((run, i) => ({ runId: run.id, jobs: run.failedJobs.filter((job) => runs[i + 1]!.failedJobs.includes(job)).sort() }))
    .filter((repeat) => repeat.jobs.length > 0);
}

/** Task 4: of the last 20 failed runs on main, which failed in the same job as the failed run before them? */
export const repeatFailuresTask: Task<RepeatFailuresAnswer> = {
  id: 'repeat-failures',
  question: `Of the last ${FAILED_RUNS} failed workflow runs of octo-org/octo-repo on main, which failed in the same job as the failed run before them?`,
  search: { query: 'list workflow runs jobs' },
  mount: (mock) => mountGithubActions(mock, history()),

  async direct(agent) {
    // The failed runs on main (GitHub filters by branch and status), then the failed jobs of each in one turn.
    const page = (await agent.call('github_list_workflow_runs', { ...GITHUB_REPO, branch: 'main', status: 'failure', jq: 'workflow_runs[*].id' })) as {
      data: number[];
    };
    const ids = page.data.slice(0, FAILED_RUNS);
    const jobs = (await agent.turn(
      ids.map((runId) => ({ tool: 'github_list_workflow_jobs', args: { ...GITHUB_REPO, runId, jq: "jobs[?conclusion=='failure'].name" } })),
    )) as Array<{
      data: string[];
    }>;
    return repeats(ids.map((id, i) => ({ id, failedJobs: jobs[i]!.data })));
  },

  program: () => programSource('repeat-failures'),

  expected() {
    const failed = history()
      .runs.filter((run) => run.head_branch === 'main' && run.conclusion === 'failure')
      .slice(0, FAILED_RUNS);
    return repeats(
      failed.map((run) => ({
        id: run.id,
        failedJobs: (history().jobs.get(run.id) ?? []).filter((j) => j.conclusion === 'failure').map((j) => String(j.name)),
      })),
    );
  },
};
