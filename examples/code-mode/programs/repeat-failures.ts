// Of the last 20 failed workflow runs of octo-org/octo-repo on main, which failed in the same job as the failed run before them?
const repo = { owner: 'octo-org', repo: 'octo-repo' };
const page = await tools.github_list_workflow_runs({ ...repo, branch: 'main', status: 'failure', jq: 'workflow_runs[*].id' });
const ids = (page.data as number[]).slice(0, 20);
const failedJobs = await Promise.all(
  ids.map(async (runId) => (await tools.github_list_workflow_jobs({ ...repo, runId, jq: "jobs[?conclusion=='failure'].name" })).data as string[]),
);
const repeats = ids
  .slice(0, -1)
  .map((runId, i) => ({ runId, jobs: failedJobs[i]!.filter((job) => failedJobs[i + 1]!.includes(job)).sort() }))
  .filter((repeat) => repeat.jobs.length > 0);
console.log(JSON.stringify(repeats));
