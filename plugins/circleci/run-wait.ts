import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import { quotingNothing, withRunReport, type LabelledOutcome } from '../../core/vendor/failure-reporter.js';
import { DEFAULT_WAIT_SECONDS, pollUntilFinished, stillRunning } from '../../core/vendor/run-wait.js';
import type { CircleciDeps } from './circleci-deps.js';

// `wait: true` on the tools that start work (trigger a pipeline, rerun a workflow): poll its workflows and their
// jobs until every workflow has finished.

interface Workflow {
  id?: string;
  name?: string;
  status?: string;
}
interface Job {
  name?: string;
  status?: string;
  job_number?: number;
  project_slug?: string;
}

/** A workflow in one of these has finished. */
const WORKFLOW_DONE = new Set(['success', 'failed', 'error', 'canceled', 'unauthorized', 'not_run']);
/** A job in one of these has not finished yet. */
const JOB_PENDING = new Set(['running', 'queued', 'not_running', 'on_hold', 'blocked']);
/** A job in one of these failed. */
const JOB_FAILED = new Set(['failed', 'infrastructure_fail', 'timedout', 'terminated-unknown']);
/** Most workflows a wait reads the jobs of, each poll. */
const MAX_WORKFLOWS = 10;
/** Polls without a workflow before the wait ends: a pipeline whose config failed to compile starts none. */
const POLLS_FOR_A_FIRST_WORKFLOW = 5;

/**
 * The reads a wait sends, declared by the tools that wait (`wait: true`): the workflows and their jobs; on
 * failure, what the failure report reads of each failed job (its detail, its v1.1 steps, the step output on the
 * signed URL they give, its tests, its project's flaky tests).
 */
export const WORKFLOW_READS: FurtherRoute[] = [
  { method: 'GET', path: '/pipeline/*/workflow' },
  { method: 'GET', path: '/workflow/*' },
  { method: 'GET', path: '/workflow/*/job' },
  { method: 'GET', path: '/project/*/*/*/job/*' },
  { method: 'GET', path: '/api/v1.1/project/*/*/*/*' },
  { method: 'GET', path: '/project/*/*/*/*/tests' },
  { method: 'GET', path: '/insights/*/*/*/flaky-tests' },
  { method: 'GET', host: '*', path: '/**' },
];

export interface WorkflowsOutcome {
  status: string;
  workflows: Array<{ id: string; name: string; status: string }>;
  failedJobs?: Array<{
    workflow: string;
    name: string;
    status: string;
    jobNumber: number | null;
    logs: { tool: 'circleci_logs'; arguments: Record<string, unknown> } | null;
  }>;
  /** The failure report of the failed jobs (core/vendor/failure-reporter.ts), or why there is none. */
  failureReport?: string;
}

/** Waits for the workflows `read` lists (a pipeline's, or one rerun workflow) to finish, then says how they ended. */
export async function waitForWorkflows(
  ctx: ToolContext,
  circleci: CircleciDeps,
  read: () => Promise<Workflow[]>,
  timeoutSeconds = DEFAULT_WAIT_SECONDS,
): Promise<LabelledOutcome<WorkflowsOutcome>> {
  const { value, finished } = await pollUntilFinished(
    ctx,
    { firstIntervalMs: circleci.pollMs, timeoutMs: timeoutSeconds * 1000, unit: 'job' },
    async (poll) => {
      const workflows = (await read()).filter((w) => typeof w.id === 'string').slice(0, MAX_WORKFLOWS);
      const jobs = await Promise.all(
        workflows.map(async (w) => ({
          workflow: w,
          jobs: itemsOf<Job>((await circleci.upstream.send(ctx, { method: 'GET', path: `/workflow/${encodeURIComponent(w.id!)}/job` })).body),
        })),
      );
      const all = jobs.flatMap((j) => j.jobs);
      const done = workflows.length > 0 && workflows.every((w) => WORKFLOW_DONE.has(w.status ?? ''));
      const pending = all.filter((j) => JOB_PENDING.has(j.status ?? '')).map((j) => j.name ?? 'a job');
      return { value: jobs, total: all.length, pending, finished: done, giveUp: workflows.length === 0 && poll >= POLLS_FOR_A_FIRST_WORKFLOW };
    },
  );
  const workflows = value.map(({ workflow: w }) => ({ id: w.id!, name: w.name ?? '', status: w.status ?? '' }));
  if (workflows.length === 0)
    return quotingNothing({ status: 'No workflow started: the config may not have compiled (circleci_pipeline_status shows its errors).', workflows });
  if (!finished) return quotingNothing({ status: stillRunning(timeoutSeconds, 'follow it with circleci_pipeline_status.'), workflows });
  const failed = value.flatMap(({ workflow, jobs }) => jobs.filter((j) => JOB_FAILED.has(j.status ?? '')).map((job) => ({ workflow, job })));
  const failedJobs = failed.map(({ workflow, job: j }) => ({
    workflow: workflow.name ?? '',
    name: j.name ?? '',
    status: j.status ?? '',
    jobNumber: j.job_number ?? null,
    logs:
      j.job_number !== undefined && j.project_slug !== undefined
        ? { tool: 'circleci_logs' as const, arguments: { projectSlug: j.project_slug, jobNumber: j.job_number } }
        : null,
  }));
  const passed = workflows.every((w) => w.status === 'success');
  if (passed) return quotingNothing({ status: `Finished: all ${workflows.length} workflow${workflows.length === 1 ? '' : 's'} succeeded.`, workflows });
  const outcome: WorkflowsOutcome = { status: `Finished: ${workflows.map((w) => `${w.name} ${w.status}`).join(', ')}.`, workflows, failedJobs };
  const jobs = failed.flatMap(({ job: j }) =>
    j.job_number !== undefined && j.project_slug !== undefined ? [{ projectSlug: j.project_slug, jobNumber: j.job_number, name: j.name ?? '' }] : [],
  );
  if (jobs.length === 0) return quotingNothing(outcome);
  return withRunReport(ctx, circleci.services, outcome, { vendor: 'circleci', client: circleci.upstream, jobs });
}

/** The workflows of pipeline `id`. */
export const pipelineWorkflows = (ctx: ToolContext, circleci: CircleciDeps, id: string) => async (): Promise<Workflow[]> =>
  itemsOf<Workflow>((await circleci.upstream.send(ctx, { method: 'GET', path: `/pipeline/${encodeURIComponent(id)}/workflow` })).body);

/** Workflow `id` alone (a rerun's new workflow). */
export const oneWorkflow = (ctx: ToolContext, circleci: CircleciDeps, id: string) => async (): Promise<Workflow[]> => {
  const body = (await circleci.upstream.send(ctx, { method: 'GET', path: `/workflow/${encodeURIComponent(id)}` })).body as Workflow | null;
  return body !== null && typeof body === 'object' ? [body] : [];
};

function itemsOf<T>(body: unknown): T[] {
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? (items.filter((i) => i !== null && typeof i === 'object') as T[]) : [];
}
