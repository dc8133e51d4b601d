import Type, { type Static } from 'typebox';
import type { ToolAnnotations } from '../../core/plugin/contract.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import type { CircleciDeps } from './circleci-deps.js';
import type { V1JobDetail } from './job-steps.js';
import { flakyTests } from './flaky-tests.js';
import { jobTests } from './job-tests.js';
import { pipelineStatus } from './pipeline-status.js';
import { stepLogsText } from './step-logs.js';
import { rerunWorkflowResult } from './write-results.js';
import { NO_LABELS } from '../../core/vendor/failure-reporter.js';
import { detachableWhenWaiting, RunWaitArgs } from '../../core/vendor/run-wait.js';
import { oneWorkflow, waitForWorkflows, WORKFLOW_READS } from './run-wait.js';

// CircleCI's v2 API as the jobs an agent is asked to do: is the branch green, what did a job print, rerun it,
// trigger it, which tests failed, which tests flake. Handlers send `ctx.route`, which the validate stage computed
// from the arguments: what policy decided on is exactly what goes out; any further request passes the request gate.

/** A v2 project slug: `gh/ORG/REPO`, `bb/ORG/REPO`, or `circleci/ORG_ID/PROJECT_ID` (GitLab, GitHub App). */
export const ProjectSlug = Type.String({
  pattern: '^(gh|github|bb|bitbucket|circleci)(/[\\w.-]{1,100}){2}$',
  description: 'e.g. "gh/acme/api" or "circleci/ORG_ID/PROJECT_ID".',
});

export const branch = (description: string): ReturnType<typeof Type.String> => Type.String({ minLength: 1, description });
const WorkflowId = Type.String({ pattern: '^[0-9a-fA-F-]{36}$', description: 'Workflow id.' });

const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

export const StatusArgs = Type.Object({ projectSlug: ProjectSlug, branch: branch('Branch name.'), ...renderingArgs }, { additionalProperties: false });
export type StatusArgs = Static<typeof StatusArgs>;

export const RerunArgs = Type.Object(
  {
    workflowId: WorkflowId,
    fromFailed: Type.Optional(Type.Boolean({ description: 'Only the failed jobs (default true); false: all.' })),
    ...RunWaitArgs,
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export type RerunArgs = Static<typeof RerunArgs>;

export const JobTestsArgs = Type.Object(
  {
    projectSlug: ProjectSlug,
    jobNumber: Type.Integer({ minimum: 1 }),
    failedOnly: Type.Optional(Type.Boolean({ description: 'Only tests that did not pass (default true).' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export type JobTestsArgs = Static<typeof JobTestsArgs>;

export const LogsArgs = Type.Object(
  {
    projectSlug: Type.String({
      pattern: '^(gh|github|bb|bitbucket)(/[\\w.-]{1,100}){2}$',
      description: 'Project slug, e.g. "gh/acme/api" (GitHub or Bitbucket).',
    }),
    jobNumber: Type.Integer({ minimum: 1, description: 'Job number (job_number of "/workflow/{id}/job").' }),
    step: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1 })], {
        description: 'Only this step, by number (from 1) or name, whatever its status.',
      }),
    ),
    failedOnly: Type.Optional(Type.Boolean({ description: 'Only failed steps (default true).' })),
    tailLines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Lines to show from the end (default 500).' })),
  },
  { additionalProperties: false },
);

/** CircleCI's v1.1 names for the VCS of a v2 project slug. */
const V1_VCS: Record<string, string> = { gh: 'github', github: 'github', bb: 'bitbucket', bitbucket: 'bitbucket' };

export const FlakyArgs = Type.Object({ projectSlug: ProjectSlug, ...renderingArgs }, { additionalProperties: false });

/** CircleCI's body to rerun a workflow. */
export interface RerunBody {
  from_failed: boolean;
}

/** circleci_logs' defaults, applied here: the arguments are optional, as any argument with a default is. */
const LOGS_DEFAULTS = { failedOnly: true, tailLines: 500 };

export const LOGS = defineTool({
  name: 'circleci_logs',
  title: 'Read the step output of a CircleCI job',
  description: [
    "Show the output of a job's steps, failed steps only by default, escape codes stripped and repeated lines collapsed: the last tailLines lines as text.",
    'The whole output is saved as an artifact the result names: page through it with artifact_read, encoding "utf8".',
  ].join(' '),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  input: LogsArgs,
  savesArtifacts: true,
  toolset: 'circleci.pipelines',
  // The step list with output URLs exists only in CircleCI's v1.1 job detail.
  route: (args: Static<typeof LogsArgs>) => {
    const [vcs = '', org, repo] = args.projectSlug.split('/');
    return { method: 'GET', path: `/api/v1.1/project/${V1_VCS[vcs]}/${org}/${repo}/${args.jobNumber}` };
  },
  // Each step's output, from the signed URL the job detail gives: another host, read without the CircleCI token.
  further: [{ method: 'GET', host: '*', path: '/**' }],
  handler: async (ctx, circleci: CircleciDeps) => {
    const detail = (await circleci.upstream.send(ctx, ctx.route)).body as V1JobDetail;
    const request = { ...ctx.args, failedOnly: ctx.args.failedOnly ?? LOGS_DEFAULTS.failedOnly, tailLines: ctx.args.tailLines ?? LOGS_DEFAULTS.tailLines };
    return { text: await stepLogsText(ctx, circleci, request, detail) };
  },
});

export const PIPELINE_STATUS = defineTool({
  name: 'circleci_pipeline_status',
  title: 'CircleCI status of a branch',
  description:
    "A branch's latest pipeline with its workflows and their jobs' status, in one call. Result {data}: {pipeline, workflows: [{id, name, status, jobs}]}. " +
    'Then circleci_logs or circleci_job_tests on a failed job.',
  annotations: READ,
  input: StatusArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route: (args: StatusArgs) => ({ method: 'GET', path: `/project/${args.projectSlug}/pipeline`, query: { branch: args.branch } }),
  // The latest pipeline's workflows, then each workflow's jobs (pipeline-status.ts bounds how many).
  further: [
    { method: 'GET', path: '/pipeline/*/workflow' },
    { method: 'GET', path: '/workflow/*/job' },
  ],
  handler: async (ctx, circleci: CircleciDeps) => ({ value: await pipelineStatus(ctx, circleci.upstream) }),
});

export const RERUN_WORKFLOW = defineTool({
  name: 'circleci_rerun_workflow',
  title: 'Rerun a CircleCI workflow',
  description: 'Rerun a workflow, its failed jobs by default. Result {data}: {workflowId (new), rerunOf, fromFailed}. Sent once.',
  annotations: WRITE,
  input: RerunArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route: (args: RerunArgs) => ({
    method: 'POST',
    path: `/workflow/${args.workflowId}/rerun`,
    body: { from_failed: args.fromFailed ?? true } satisfies RerunBody,
  }),
  further: (args: RerunArgs) => (args.wait === true ? WORKFLOW_READS : []),
  // A failed workflow waited on is answered with its failure report, which quotes build logs
  // and saves the whole log as an artifact.
  provenance: { labels: true },
  savesArtifacts: true,
  detachable: detachableWhenWaiting,
  handler: async (ctx, circleci: CircleciDeps) => {
    const response = await circleci.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    const result = rerunWorkflowResult(response, ctx.args);
    if (ctx.args.wait !== true) return { value: result, provenance: NO_LABELS };
    if (typeof result.workflowId !== 'string')
      return { value: { ...result, status: 'CircleCI named no new workflow, so it was not waited for.' }, provenance: NO_LABELS };
    const waited = await waitForWorkflows(ctx, circleci, oneWorkflow(ctx, circleci, result.workflowId), ctx.args.timeoutSeconds);
    return { value: { ...result, ...waited.value }, provenance: waited.provenance };
  },
});

export const JOB_TESTS = defineTool({
  name: 'circleci_job_tests',
  title: 'Test results of a CircleCI job',
  description: "A job's test results (store_test_results), failed only by default. Result {data}: {counts, tests: [{name, classname, file, result, message}]}.",
  annotations: READ,
  input: JobTestsArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route: (args: JobTestsArgs) => ({ method: 'GET', path: testsPath(args) }),
  // Further pages of the same results, by CircleCI's page-token.
  further: (args: JobTestsArgs) => [{ method: 'GET', path: testsPath(args) }],
  handler: async (ctx, circleci: CircleciDeps) => ({ value: await jobTests(ctx, circleci.upstream) }),
});

const testsPath = (args: JobTestsArgs): string => `/project/${args.projectSlug}/${args.jobNumber}/tests`;

export const FLAKY_TESTS = defineTool({
  name: 'circleci_flaky_tests',
  title: 'Flaky tests of a CircleCI project',
  description:
    "Tests that passed and failed on one commit in 14 days (Insights). Result {data}: {flaky_tests: [{test_name, times_flaked}], total_flaky_tests}; jq e.g. 'flaky_tests[*].test_name'.",
  annotations: READ,
  input: FlakyArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route: (args: Static<typeof FlakyArgs>) => ({ method: 'GET', path: `/insights/${args.projectSlug}/flaky-tests` }),
  handler: async (ctx, circleci: CircleciDeps) => ({ value: flakyTests((await circleci.upstream.send(ctx, ctx.route)).body) }),
});
