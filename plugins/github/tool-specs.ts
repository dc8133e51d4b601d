import Type, { type Static } from 'typebox';
import type { ToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { PagedEnvelope } from '../../core/schema/envelopes.js';
import { Owner, Page, PerPage, READ, Repo, repoPath } from './shared-args.js';

const RUN_STATUSES = ['completed', 'action_required', 'cancelled', 'failure', 'neutral', 'skipped', 'stale', 'success', 'timed_out', 'in_progress', 'queued', 'requested', 'waiting', 'pending'] as const;

export const ListRunsArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    workflowId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[A-Za-z0-9_.-]{1,255}$' })], {
        description: 'Only runs of this workflow: its numeric id or its file name (e.g. "ci.yml"). Omit for every workflow.',
      }),
    ),
    branch: Type.Optional(Type.String({ minLength: 1, description: 'Only runs for this branch (the head branch of pull requests).' })),
    status: Type.Optional(Type.Enum([...RUN_STATUSES], { description: 'Only runs with this status or conclusion.' })),
    event: Type.Optional(Type.String({ minLength: 1, description: 'Only runs triggered by this event, e.g. "push", "pull_request", "schedule".' })),
    actor: Type.Optional(Type.String({ minLength: 1, description: 'Only runs started by this user login.' })),
    created: Type.Optional(Type.String({ minLength: 1, description: 'Date filter in GitHub search syntax, e.g. ">=2024-05-01" or "2024-05-01..2024-05-07".' })),
    headSha: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{4,64}$', description: 'Only runs for this commit SHA (sent as head_sha).' })),
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
    runId: Type.Integer({ minimum: 1, description: 'Workflow run id (the "id" of a run from github_list_workflow_runs).' }),
    filter: Type.Optional(Type.Union([Type.Literal('latest'), Type.Literal('all')], { description: '"latest" (default): jobs of the latest attempt; "all": jobs of every attempt.' })),
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
    jobId: Type.Integer({ minimum: 1, description: 'Job id (the "id" of a job from github_list_workflow_jobs).' }),
    tailLines: Type.Integer({ minimum: 1, maximum: 100000, default: 500, description: 'How many lines from the end of the log to show (default 500).' }),
  },
  { additionalProperties: false },
);

export const GetArgs = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'Relative REST API path, e.g. "/repos/octo-org/octo-repo/actions/runs/30433642/artifacts". Never a full URL.' }),
    queryParams: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), { description: 'Query parameters, e.g. {"per_page": 50, "page": 2}.' }),
    ),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const LIST_RUNS: ToolSpec<typeof ListRunsArgs> = {
  name: 'github_list_workflow_runs',
  title: 'List GitHub Actions workflow runs',
  description: [
    'List workflow runs of a GitHub repository, newest first, optionally of one workflow (workflowId) and filtered by branch, status, event, actor, created date or commit (headSha).',
    'The result is {data, nextPage}: data is GitHub\'s page ({total_count, workflow_runs}) after jq; nextPage is the page to pass as "page" for more, or null on the last page.',
    'Runs are large objects: project them, e.g. jq "workflow_runs[*].{id: id, name: name, status: status, conclusion: conclusion, branch: head_branch, sha: head_sha, created: created_at}".',
    'Then list a run\'s jobs with github_list_workflow_jobs and read a failed job\'s log with github_get_job_logs.',
  ].join(' '),
  annotations: READ,
  input: ListRunsArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof ListRunsArgs>) => ({
    method: 'GET',
    path: args.workflowId === undefined ? `${repoPath(args)}/actions/runs` : `${repoPath(args)}/actions/workflows/${encodeURIComponent(String(args.workflowId))}/runs`,
    query: { branch: args.branch, status: args.status, event: args.event, actor: args.actor, created: args.created, head_sha: args.headSha, per_page: args.perPage, page: args.page },
  }),
};

export const LIST_JOBS: ToolSpec<typeof ListJobsArgs> = {
  name: 'github_list_workflow_jobs',
  title: 'List jobs of a GitHub Actions workflow run',
  description: [
    'List the jobs of one workflow run, with each job\'s status, conclusion and steps.',
    'The result is {data, nextPage}: data is GitHub\'s page ({total_count, jobs}) after jq; nextPage is the page to pass as "page" for more, or null on the last page.',
    'To find what failed, project e.g. jq "jobs[?conclusion==\'failure\'].{id: id, name: name, failedSteps: steps[?conclusion==\'failure\'].name}", then read the log of a failed job with github_get_job_logs (jobId = its id).',
  ].join(' '),
  annotations: READ,
  input: ListJobsArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof ListJobsArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/actions/runs/${args.runId}/jobs`,
    query: { filter: args.filter, per_page: args.perPage, page: args.page },
  }),
};

export const JOB_LOGS: ToolSpec<typeof JobLogsArgs> = {
  name: 'github_get_job_logs',
  title: 'Read the log of a GitHub Actions job',
  description: [
    'Show the last lines of a job\'s log (tailLines, default 500; failures are usually at the end), as plain text with GitHub\'s timestamps.',
    'The whole log is saved as an artifact whose id the result names: read it in chunks with artifact_read when the tail is not enough.',
    'The tail is also kept short enough to be shown whole, so fewer lines than asked may appear for very long lines.',
  ].join(' '),
  annotations: READ,
  input: JobLogsArgs,
  route: (args: Static<typeof JobLogsArgs>) => ({ method: 'GET', path: `${repoPath(args)}/actions/jobs/${args.jobId}/logs` }),
};

export const GET: ToolSpec<typeof GetArgs> = {
  name: 'github_get',
  title: 'GitHub REST API GET',
  description: [
    'Read-only GET of any GitHub REST API path, for what the other github_* tools do not cover (artifacts, workflows, check runs, pull requests...).',
    'path is relative to the API root, e.g. "/repos/OWNER/REPO/actions/workflows"; query parameters go in queryParams (lists take per_page and page; GitHub shows more pages in its Link header, so ask for page+1 until a page comes back short).',
    'Use jq (JMESPath) to keep only the fields you need.',
  ].join(' '),
  annotations: READ,
  input: GetArgs,
  route: (args: Static<typeof GetArgs>) => ({ method: 'GET', path: args.path, query: args.queryParams }),
};
