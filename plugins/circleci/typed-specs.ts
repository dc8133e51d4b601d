import Type, { type Static } from 'typebox';
import type { RoutedToolSpec, ToolAnnotations } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';

// CircleCI's v2 API as the jobs an agent is asked to do: is the branch green, rerun it, trigger it, which tests
// failed, which tests flake.

/** A v2 project slug: `gh/ORG/REPO`, `bb/ORG/REPO`, or `circleci/ORG_ID/PROJECT_ID` (GitLab, GitHub App). */
export const ProjectSlug = Type.String({
  pattern: '^(gh|github|bb|bitbucket|circleci)(/[\\w.-]{1,100}){2}$',
  description: 'e.g. "gh/acme/api" or "circleci/ORG_ID/PROJECT_ID".',
});

const branch = (description: string): ReturnType<typeof Type.String> => Type.String({ minLength: 1, description });
const WorkflowId = Type.String({ pattern: '^[0-9a-fA-F-]{36}$', description: 'Workflow id.' });

const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

export const StatusArgs = Type.Object({ projectSlug: ProjectSlug, branch: branch('Branch name.'), ...renderingArgs }, { additionalProperties: false });
export type StatusArgs = Static<typeof StatusArgs>;

export const RerunArgs = Type.Object(
  {
    workflowId: WorkflowId,
    fromFailed: Type.Optional(Type.Boolean({ description: 'Only the failed jobs (default true); false: all.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export type RerunArgs = Static<typeof RerunArgs>;

export const TriggerArgs = Type.Object(
  {
    projectSlug: ProjectSlug,
    branch: Type.Optional(branch('Default: the default branch.')),
    parameters: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer(), Type.Boolean()]), {
        description: 'Pipeline parameters, e.g. {"deploy_prod": true}.',
      }),
    ),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export type TriggerArgs = Static<typeof TriggerArgs>;

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

export const FlakyArgs = Type.Object({ projectSlug: ProjectSlug, ...renderingArgs }, { additionalProperties: false });

/** CircleCI's body to rerun a workflow. */
export interface RerunBody {
  from_failed: boolean;
}

/** CircleCI's body to trigger a pipeline. */
export interface TriggerBody {
  branch?: string;
  parameters?: Record<string, string | number | boolean>;
}

export const PIPELINE_STATUS: RoutedToolSpec<typeof StatusArgs, typeof ReadEnvelope> = {
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
};

export const RERUN_WORKFLOW: RoutedToolSpec<typeof RerunArgs, typeof ReadEnvelope> = {
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
};

export const TRIGGER_PIPELINE: RoutedToolSpec<typeof TriggerArgs, typeof ReadEnvelope> = {
  name: 'circleci_trigger_pipeline',
  title: 'Trigger a CircleCI pipeline',
  description: 'Start a pipeline, with parameters. Result {data}: {id, number, state, branch, url}. Sent once.',
  annotations: WRITE,
  input: TriggerArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route: (args: TriggerArgs) => {
    const body: TriggerBody = {};
    if (args.branch !== undefined) body.branch = args.branch;
    if (args.parameters !== undefined) body.parameters = args.parameters;
    return { method: 'POST', path: `/project/${args.projectSlug}/pipeline`, body };
  },
};

export const JOB_TESTS: RoutedToolSpec<typeof JobTestsArgs, typeof ReadEnvelope> = {
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
};

const testsPath = (args: JobTestsArgs): string => `/project/${args.projectSlug}/${args.jobNumber}/tests`;

export const FLAKY_TESTS: RoutedToolSpec<typeof FlakyArgs, typeof ReadEnvelope> = {
  name: 'circleci_flaky_tests',
  title: 'Flaky tests of a CircleCI project',
  description:
    'Tests that passed and failed on one commit in 14 days (Insights). Result {data}: CircleCI\'s {flaky-tests, total-flaky-tests}; jq quotes such keys: \'"flaky-tests"[*]."test-name"\'.',
  annotations: READ,
  input: FlakyArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route: (args: Static<typeof FlakyArgs>) => ({ method: 'GET', path: `/insights/${args.projectSlug}/flaky-tests` }),
};
