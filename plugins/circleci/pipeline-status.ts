import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import { advisedTool, type HandlerContext, type ToolContext } from '../../core/plugin/tool-context.js';

/*
 * circleci_pipeline_status: three kinds of request (the branch's pipelines, the latest one's workflows, each
 * workflow's jobs), bounded so that one call never fans out without end: MAX_WORKFLOWS workflows, MAX_JOB_PAGES
 * pages of jobs each, CONCURRENT requests at a time. What was left out is said in the result.
 */

const MAX_WORKFLOWS = 10;
const MAX_JOB_PAGES = 3;
const CONCURRENT = 4;

type Json = Record<string, unknown>;
interface Page {
  items?: unknown;
  next_page_token?: unknown;
}

const itemsOf = (page: Page, what: string): Json[] => {
  if (!Array.isArray(page?.items)) throw new ToolError('upstream_invalid_body', `CircleCI's list of ${what} has no "items".`);
  return page.items.filter((i): i is Json => i !== null && typeof i === 'object');
};
const nextToken = (page: Page): string | undefined =>
  typeof page?.next_page_token === 'string' && page.next_page_token !== '' ? page.next_page_token : undefined;
const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Json)[k] : undefined), value) ?? null;

/** The latest pipeline of the branch with its workflows and their jobs, or `pipeline: null` when it has none. */
export async function pipelineStatus(ctx: HandlerContext<{ projectSlug: string; branch: string }>, circleci: UpstreamClient): Promise<Json> {
  const { args } = ctx;
  const pipelines = itemsOf((await circleci.send(ctx, ctx.route)).body as Page, 'pipelines');
  const latest = pipelines[0];
  if (latest === undefined) return { projectSlug: args.projectSlug, branch: args.branch, pipeline: null, workflows: [] };
  const workflowPage = (await circleci.send(ctx, { method: 'GET', path: `/pipeline/${encodeURIComponent(String(latest.id))}/workflow` })).body as Page;
  const all = itemsOf(workflowPage, 'workflows');
  const shown = all.slice(0, MAX_WORKFLOWS);
  const workflows: Json[] = [];
  let read = 0;
  const jobsOf = async (w: Json): Promise<Json> => {
    const summary = await workflowWithJobs(ctx, circleci, w);
    ctx.progress(++read, shown.length, `reading the jobs of pipeline ${String(latest.number ?? latest.id)}'s workflows`);
    return summary;
  };
  for (let start = 0; start < shown.length; start += CONCURRENT) {
    workflows.push(...(await Promise.all(shown.slice(start, start + CONCURRENT).map(jobsOf))));
  }
  const result: Json = {
    projectSlug: args.projectSlug,
    branch: args.branch,
    pipeline: {
      id: latest.id ?? null,
      number: latest.number ?? null,
      state: latest.state ?? null,
      createdAt: latest.created_at ?? null,
      trigger: at(latest, 'trigger', 'type'),
      revision: at(latest, 'vcs', 'revision'),
      commit: at(latest, 'vcs', 'commit', 'subject'),
      errors: Array.isArray(latest.errors) ? latest.errors : [],
    },
    workflows,
  };
  const more = all.length - shown.length + (nextToken(workflowPage) === undefined ? 0 : 1);
  if (more > 0)
    result.moreWorkflows = `Only the first ${shown.length} workflows are shown; list them all with ${await advisedTool(ctx, 'circleci_get')} "/pipeline/${String(latest.id)}/workflow".`;
  return result;
}

async function workflowWithJobs(ctx: ToolContext, circleci: UpstreamClient, workflow: Json): Promise<Json> {
  const id = String(workflow.id);
  const jobs: Json[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = (await circleci.send(ctx, { method: 'GET', path: `/workflow/${encodeURIComponent(id)}/job`, query: { 'page-token': token } })).body as Page;
    jobs.push(...itemsOf(page, 'jobs'));
    token = nextToken(page);
    pages++;
  } while (token !== undefined && pages < MAX_JOB_PAGES);
  const summary: Json = {
    id: workflow.id ?? null,
    name: workflow.name ?? null,
    status: workflow.status ?? null,
    createdAt: workflow.created_at ?? null,
    stoppedAt: workflow.stopped_at ?? null,
    jobs: jobs.map((j) => ({
      name: j.name ?? null,
      number: j.job_number ?? null,
      status: j.status ?? null,
      type: j.type ?? null,
      startedAt: j.started_at ?? null,
      stoppedAt: j.stopped_at ?? null,
    })),
  };
  if (token !== undefined)
    summary.moreJobs = `Only the first ${jobs.length} jobs are shown; list them all with ${await advisedTool(ctx, 'circleci_get')} "/workflow/${id}/job".`;
  return summary;
}
