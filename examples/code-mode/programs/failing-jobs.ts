// Which jobs failed most often on main over the last 300 workflow runs of octo-org/octo-repo?
const repo = { owner: 'octo-org', repo: 'octo-repo' };
const last = 300;

type Run = { id: number; conclusion: string | null };
const runs: Run[] = [];
for (let page: number | null = 1; page !== null && runs.length < last; ) {
  const result = await tools.github_list_workflow_runs({ ...repo, branch: 'main', page, jq: 'workflow_runs[*].{id: id, conclusion: conclusion}' });
  runs.push(...(result.data as Run[]));
  page = result.nextPage;
}

const failed = runs.slice(0, last).filter((run) => run.conclusion === 'failure');
const failedJobs = await Promise.all(
  failed.map(async (run) => (await tools.github_list_workflow_jobs({ ...repo, runId: run.id, jq: "jobs[?conclusion=='failure'].name" })).data as string[]),
);

const counts = new Map<string, number>();
for (const job of failedJobs.flat()) counts.set(job, (counts.get(job) ?? 0) + 1);
const ranking = [...counts].map(([job, failures]) => ({ job, failures })).sort((a, b) => b.failures - a.failures || a.job.localeCompare(b.job));
console.log(JSON.stringify({ runs: Math.min(last, runs.length), failedRuns: failed.length, ranking }));
