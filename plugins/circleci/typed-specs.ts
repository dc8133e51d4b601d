import Type, { type Static } from 'typebox';
import type { RoutedToolSpec, ToolAnnotations } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';

// CircleCI's v2 API as the jobs an agent is asked to do: is the branch green, rerun it, trigger it, which tests
// failed, which tests flake.

/** A v2 project slug: `gh/ORG/REPO`, `bb/ORG/REPO`, or `circleci/ORG_ID/PROJECT_ID` (GitLab, GitHub App). */
export const ProjectSlug = Type.String({
  pattern: '^(gh|github|bb|bitbucket|circleci)/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$',
  description: 'Project slug, e.g. "gh/acme/api" or "circleci/ORG_ID/PROJECT_ID".',
});

const branch = (description: string): ReturnType<typeof Type.String> => Type.String({ minLength: 1, maxLength: 255, description });
const WorkflowId = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description: 'Workflow id.' });

const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

export const StatusArgs = Type.Object({ projectSlug: ProjectSlug, branch: branch('Branch name.'), ...renderingArgs }, { additionalProperties: false });
export type StatusArgs = Static<typeof StatusArgs>;

export const RerunArgs = Type.Object(
  {
    workflowId: WorkflowId,
    fromFailed: Type.Optional(Type.Boolean({ description: 'Rerun from the failed jobs (default true); false reruns the whole workflow.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export type RerunArgs = Static<typeof RerunArgs>;

export const TriggerArgs = Type.Object(
  {
    projectSlug: ProjectSlug,
    branch: Type.Optional(branch('Branch to build (default: the default branch).')),
    parameters: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Union([Type.String({ maxLength: 512 }), Type.Integer(), Type.Boolean()]), {
        maxProperties: 100,
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
    jobNumber: Type.Integer({ minimum: 1, description: 'Job number.' }),
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
    "The latest pipeline of a branch, with its workflows and each workflow's jobs (name, number, status), in one call. " +
    'Result {data}: {pipeline, workflows: [{id, name, status, jobs}]}. Then circleci_logs or circleci_job_tests for a failed job, circleci_rerun_workflow to rerun.',
  annotations: READ,
  input: StatusArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci',
  route: (args: StatusArgs) => ({ method: 'GET', path: `/project/${args.projectSlug}/pipeline`, query: { branch: args.branch } }),
};

export const RERUN_WORKFLOW: RoutedToolSpec<typeof RerunArgs, typeof ReadEnvelope> = {
  name: 'circleci_rerun_workflow',
  title: 'Rerun a CircleCI workflow',
  description: 'Rerun a workflow, from its failed jobs by default. Result {data}: {workflowId (the new run), rerunOf, fromFailed}. Sent once, never retried.',
  annotations: WRITE,
  input: RerunArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci',
  route: (args: RerunArgs) => ({
    method: 'POST',
    path: `/workflow/${args.workflowId}/rerun`,
    body: { from_failed: args.fromFailed ?? true } satisfies RerunBody,
  }),
};

export const TRIGGER_PIPELINE: RoutedToolSpec<typeof TriggerArgs, typeof ReadEnvelope> = {
  name: 'circleci_trigger_pipeline',
  title: 'Trigger a CircleCI pipeline',
  description: 'Start a pipeline on a branch, with optional pipeline parameters. Result {data}: {id, number, state, branch, url}. Sent once, never retried.',
  annotations: WRITE,
  input: TriggerArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci',
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
  description:
    "A job's test results (from store_test_results), failed ones only by default. Result {data}: {counts by result, tests: [{name, classname, file, result, message}]}.",
  annotations: READ,
  input: JobTestsArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci',
  route: (args: JobTestsArgs) => ({ method: 'GET', path: `/project/${args.projectSlug}/${args.jobNumber}/tests` }),
};

export const FLAKY_TESTS: RoutedToolSpec<typeof FlakyArgs, typeof ReadEnvelope> = {
  name: 'circleci_flaky_tests',
  title: 'Flaky tests of a CircleCI project',
  description:
    "Tests that passed and failed on the same commit in the last 14 days (CircleCI Insights). Result {data}: CircleCI's {flaky-tests, total-flaky-tests}; " +
    'hyphenated keys are quoted in jq: \'"flaky-tests"[*]."test-name"\'.',
  annotations: READ,
  input: FlakyArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci',
  route: (args: Static<typeof FlakyArgs>) => ({ method: 'GET', path: `/insights/${args.projectSlug}/flaky-tests` }),
};
