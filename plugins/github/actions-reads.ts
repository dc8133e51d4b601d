import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { PagedEnvelope } from '../../core/schema/envelopes.js';
import { logResultText } from '../../core/vendor/log-result.js';
import { checkRunsPage } from './check-runs.js';
import { page, type GithubDeps } from './github-deps.js';
import { Owner, Page, PerPage, pathSegment, READ, Repo, repoPath, RunId } from './shared-args.js';
import { jobLogLabel, JOB_RUN_LOOKUPS } from './provenance.js';

// GitHub Actions reads: workflow runs and jobs (paged), job logs (tail as text, whole log as an artifact), and
// the checks of a commit.

/** Lines of a job log shown when tailLines is not given. */
export const DEFAULT_TAIL_LINES = 500;

const RUN_STATUSES = [
  'completed',
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'skipped',
  'stale',
  'success',
  'timed_out',
  'in_progress',
  'queued',
  'requested',
  'waiting',
  'pending',
] as const;

export const ListRunsArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    workflowId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[A-Za-z0-9_.-]{1,255}$' })], {
        description: 'Only this workflow: id or file name ("ci.yml").',
      }),
    ),
    branch: Type.Optional(Type.String({ minLength: 1, description: 'Head branch.' })),
    status: Type.Optional(Type.Enum([...RUN_STATUSES], { description: 'Status or conclusion.' })),
    event: Type.Optional(Type.String({ minLength: 1, description: 'Triggering event, e.g. "push".' })),
    actor: Type.Optional(Type.String({ minLength: 1, description: 'Login that started the run.' })),
    created: Type.Optional(Type.String({ minLength: 1, description: 'Creation date, search syntax: ">=2024-05-01".' })),
    headSha: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{4,64}$', description: 'Commit SHA.' })),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const ListJobsArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    runId: RunId,
    filter: Type.Optional(Type.Enum(['latest', 'all'], { description: 'Jobs of the "latest" attempt (default) or of "all".' })),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const JobLogsArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    jobId: Type.Integer({ minimum: 1, description: 'Job id (from github_list_workflow_jobs).' }),
    tailLines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: DEFAULT_TAIL_LINES, description: 'Lines to show from the end.' })),
  },
  { additionalProperties: false },
);

export const CheckRunsArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    ref: Type.String({ minLength: 1, description: "Commit SHA, branch or tag (a pull request's head.sha)." }),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const LIST_RUNS = defineTool({
  name: 'github_list_workflow_runs',
  toolset: 'github.actions',
  title: 'List GitHub Actions workflow runs',
  description: [
    'List workflow runs of a repository, newest first.',
    'Result {data: {total_count, workflow_runs}, nextPage}; pass nextPage as page.',
    'Runs are large: project them, e.g. jq "workflow_runs[*].{id: id, name: name, conclusion: conclusion, branch: head_branch}".',
    'Then github_list_workflow_jobs; github_get_job_logs for a failed job.',
  ].join(' '),
  annotations: READ,
  input: ListRunsArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof ListRunsArgs>) => ({
    method: 'GET',
    path:
      args.workflowId === undefined
        ? `${repoPath(args)}/actions/runs`
        : `${repoPath(args)}/actions/workflows/${encodeURIComponent(String(args.workflowId))}/runs`,
    query: {
      branch: args.branch,
      status: args.status,
      event: args.event,
      actor: args.actor,
      created: args.created,
      head_sha: args.headSha,
      per_page: args.perPage,
      page: args.page,
    },
  }),
  handler: (ctx, github: GithubDeps) => page(github, ctx),
});

export const LIST_JOBS = defineTool({
  name: 'github_list_workflow_jobs',
  toolset: 'github.actions',
  title: 'List jobs of a GitHub Actions workflow run',
  description: [
    'List the jobs of a workflow run with their steps. Result {data, nextPage} as for runs.',
    "Find what failed with jq \"jobs[?conclusion=='failure'].{id: id, name: name, failedSteps: steps[?conclusion=='failure'].name}\", then github_get_job_logs (jobId).",
  ].join(' '),
  annotations: READ,
  input: ListJobsArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof ListJobsArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/actions/runs/${args.runId}/jobs`,
    query: { filter: args.filter, per_page: args.perPage, page: args.page },
  }),
  handler: (ctx, github: GithubDeps) => page(github, ctx),
});

export const JOB_LOGS = defineTool({
  name: 'github_get_job_logs',
  toolset: 'github.actions',
  title: 'Read the log of a GitHub Actions job',
  description: [
    "The last tailLines lines of a job's log, as text (fewer when very long lines would not fit).",
    'The whole log is saved as an artifact the result names: page through it with artifact_read, encoding "utf8".',
  ].join(' '),
  annotations: READ,
  input: JobLogsArgs,
  savesArtifacts: true,
  provenance: { labels: true },
  route: (args: Static<typeof JobLogsArgs>) => ({ method: 'GET', path: `${repoPath(args)}/actions/jobs/${args.jobId}/logs` }),
  // The job and its run, read after the log: a fork's build is untrusted (provenance.ts).
  further: JOB_RUN_LOOKUPS,
  handler: async (ctx, github: GithubDeps) => {
    const args = ctx.args;
    const where = `job ${args.jobId} of ${args.owner}/${args.repo}`;
    try {
      // GitHub answers 302 to a signed URL on a blob host: followed, without the token.
      const response = await github.upstream.send(ctx, ctx.route, {
        expect: 'text',
        followForeignRedirectWithoutAuth: true,
        progress: `reading the log of ${where}`,
      });
      const log = github.scrub(response.text);
      return {
        text: await logResultText(ctx, github.artifacts, { where, what: 'log', tailLines: args.tailLines ?? DEFAULT_TAIL_LINES, shown: log, whole: log }),
        provenance: await jobLogLabel(github, ctx, args),
      };
    } catch (error) {
      // "Ask for a smaller page" means nothing for a log: say what can be done instead.
      if ((error as { code?: string }).code !== 'upstream_too_large') throw error;
      throw new ToolError(
        'upstream_too_large',
        `The log of job ${args.jobId} is larger than MCP_MAX_RESPONSE_BYTES (${github.maxBytes} bytes), so it was not read. Find the failing step with github_list_workflow_jobs, or have MCP_MAX_RESPONSE_BYTES raised to read logs this large.`,
      );
    }
  },
});

export const LIST_CHECK_RUNS = defineTool({
  name: 'github_list_check_runs',
  toolset: 'github.actions',
  title: 'List the checks of a GitHub commit',
  description: [
    'The checks of a commit, branch or tag: what a pull request waits on.',
    'Result {data, nextPage}: data is {total_count, counts, check_runs: [{id, name, app, status, conclusion, url}]}.',
    "A GitHub Actions check's id is its job id: read its log with github_get_job_logs.",
  ].join(' '),
  annotations: READ,
  input: CheckRunsArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof CheckRunsArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/commits/${pathSegment(args.ref, 'ref')}/check-runs`,
    query: { per_page: args.perPage, page: args.page },
  }),
  handler: async (ctx, github: GithubDeps) => {
    const checks = await page(github, ctx);
    return { ...checks, value: checkRunsPage(checks.value) };
  },
});
