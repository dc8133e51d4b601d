import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import { quotingNothing, withRunReport, type LabelledOutcome } from '../../core/vendor/failure-reporter.js';
import { DEFAULT_WAIT_SECONDS, pollUntilFinished, stillRunning } from '../../core/vendor/run-wait.js';
import type { GithubDeps } from './github-deps.js';
import { repoPath } from './shared-args.js';

// `wait: true` on the tools that start a run (rerun, dispatch): poll that run and its jobs until it finishes.

interface Step {
  name?: string;
  conclusion?: string | null;
}
interface Job {
  id?: number;
  name?: string;
  status?: string;
  conclusion?: string | null;
  html_url?: string;
  steps?: Step[];
}
interface Run {
  status?: string;
  conclusion?: string | null;
  head_sha?: string;
  /** The start of the run's latest attempt: a rerun resets it. */
  run_started_at?: string;
}

/** Polls a rerun may still read the attempt before it (GitHub queues the new one shortly after answering). */
const POLLS_FOR_THE_RERUN = 5;

/** Conclusions that are not a failure. */
const PASSED = new Set(['success', 'skipped', 'neutral']);

/** What a wait reads (`wait: true`): the run and its jobs; on failure, what the failure report reads of its commit and failed jobs. */
export const runReads = (args: { owner: string; repo: string; runId: number | '*' }): FurtherRoute[] => {
  const repo = repoPath(args);
  return [
    { method: 'GET', path: `${repo}/actions/runs/${args.runId}` },
    { method: 'GET', path: `${repo}/actions/runs/${args.runId}/jobs` },
    { method: 'GET', path: `${repo}/commits/*/check-runs` },
    { method: 'GET', path: `${repo}/commits/*/status` },
    { method: 'GET', path: `${repo}/actions/jobs/*` },
    { method: 'GET', path: `${repo}/actions/jobs/*/logs` },
    { method: 'GET', path: `${repo}/check-runs/*/annotations` },
  ];
};

/**
 * What a wait adds to the write's answer: the final status, and on failure the failed jobs with their failed
 * steps and the failure report (core/vendor/failure-reporter.ts) of this run.
 */
export interface RunOutcome {
  status: string;
  conclusion: string | null;
  failedJobs?: Array<{
    name: string;
    conclusion: string | null;
    failedSteps: string[];
    html_url: string | null;
    logs: { tool: 'github_get_job_logs'; arguments: { owner: string; repo: string; jobId: number } } | null;
  }>;
  failureReport?: string;
}

/** Waits for run `runId` of `owner/repo` (the call's `timeoutSeconds`), then says how it ended. */
export async function waitForRun(
  ctx: ToolContext,
  github: GithubDeps,
  where: { owner: string; repo: string; runId: number },
  timeoutSeconds = DEFAULT_WAIT_SECONDS,
  rerunSentAt?: number,
): Promise<LabelledOutcome<RunOutcome>> {
  const runPath = `${repoPath(where)}/actions/runs/${where.runId}`;
  const { value, finished } = await pollUntilFinished(ctx, { firstIntervalMs: github.pollMs, timeoutMs: timeoutSeconds * 1000, unit: 'job' }, async (poll) => {
    const run = (await github.upstream.send(ctx, { method: 'GET', path: runPath })).body as Run | null;
    // An answer with no status is not a run: polling it again would only wait out the whole timeout.
    if (typeof run?.status !== 'string')
      throw new ToolError('upstream_invalid_body', `GitHub answered run ${where.runId} of ${where.owner}/${where.repo} with no status: the wait ended.`);
    const jobs =
      ((await github.upstream.send(ctx, { method: 'GET', path: `${runPath}/jobs`, query: { filter: 'latest', per_page: '100' } })).body as { jobs?: Job[] })
        .jobs ?? [];
    const pending = jobs.filter((j) => j.status !== 'completed').map((j) => j.name ?? 'a job');
    // A rerun's run that reads completed with an attempt started before the rerun was sent is the old attempt.
    const started = Date.parse(run.run_started_at ?? '');
    const stale = rerunSentAt !== undefined && run.status === 'completed' && started < rerunSentAt;
    return {
      value: { run, jobs, stale },
      total: jobs.length,
      pending,
      finished: run.status === 'completed' && !stale,
      giveUp: stale && poll >= POLLS_FOR_THE_RERUN,
    };
  });
  const { run, jobs } = value as { run: Run; jobs: Job[] };
  if (value.stale)
    return quotingNothing({ status: 'GitHub still shows the attempt before the rerun: follow the run with github_list_workflow_jobs.', conclusion: null });
  if (!finished)
    return quotingNothing({ status: stillRunning(timeoutSeconds, `follow it with github_list_workflow_jobs, or ci_wait on its commit.`), conclusion: null });
  const conclusion = run.conclusion ?? null;
  if (conclusion !== null && PASSED.has(conclusion)) return quotingNothing({ status: `The run finished: ${conclusion}.`, conclusion });
  const failed = jobs.filter((j) => j.conclusion != null && !PASSED.has(j.conclusion));
  const failedJobs = failed.map((j) => ({
    name: j.name ?? '',
    conclusion: j.conclusion ?? null,
    failedSteps: (j.steps ?? []).filter((s) => s.conclusion === 'failure').map((s) => s.name ?? ''),
    html_url: j.html_url ?? null,
    logs: typeof j.id === 'number' ? { tool: 'github_get_job_logs' as const, arguments: { owner: where.owner, repo: where.repo, jobId: j.id } } : null,
  }));
  const outcome: RunOutcome = { status: `The run finished: ${conclusion ?? 'no conclusion'}.`, conclusion, failedJobs };
  const reported = failed.filter((j): j is Job & { id: number } => typeof j.id === 'number');
  if (!run.head_sha || reported.length === 0) return quotingNothing(outcome);
  return withRunReport(ctx, github.services, outcome, {
    vendor: 'github',
    client: github.upstream,
    repo: `${where.owner}/${where.repo}`,
    sha: run.head_sha,
    runId: where.runId,
    jobs: reported.map((j) => ({ id: j.id, name: j.name ?? '', conclusion: j.conclusion ?? null, url: j.html_url })),
  });
}
