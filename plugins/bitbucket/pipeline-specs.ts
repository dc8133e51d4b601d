import Type, { type Static } from 'typebox';
import type { RoutedToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CursorEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { pagingFromCursor } from './page-cursor.js';
import { Cursor } from './pull-request-specs.js';
import { READ, repoPath, RepoSlug, Uuid, uuidSegment, Workspace } from './repo-args.js';

// Bitbucket Pipelines (Cloud API 2.0): list runs, read a step's log, run a pipeline.

export const ListPipelinesArgs = Type.Object({ workspace: Workspace, repoSlug: RepoSlug, cursor: Cursor, ...renderingArgs }, { additionalProperties: false });

export const StepLogArgs = Type.Object(
  {
    workspace: Workspace,
    repoSlug: RepoSlug,
    pipelineUuid: Uuid('Pipeline'),
    stepUuid: Type.Optional(Uuid('Step (default: the first failed step, else the last)')),
    tailLines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Lines to show from the end (default 500).' })),
  },
  { additionalProperties: false },
);

export type StepLogArgs = Static<typeof StepLogArgs>;

export const RunPipelineArgs = Type.Object(
  {
    workspace: Workspace,
    repoSlug: RepoSlug,
    branch: Type.String({ minLength: 1, maxLength: 255, description: 'Branch to run on (its latest commit).' }),
    pipeline: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "A custom pipeline's name (pipelines.custom in bitbucket-pipelines.yml); default: the branch's pipeline.",
      }),
    ),
    variables: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,99}$' }), Type.String({ maxLength: 4096 }), {
        additionalProperties: false,
        description: 'Pipeline variables, e.g. {"DEPLOY_ENV": "staging"}.',
      }),
    ),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export type RunPipelineArgs = Static<typeof RunPipelineArgs>;

/** Bitbucket's body to run a pipeline on a branch: its default pipeline, or a custom one by name. */
export interface RunPipelineBody {
  target: {
    type: 'pipeline_ref_target';
    ref_type: 'branch';
    ref_name: string;
    selector?: { type: 'custom'; pattern: string };
  };
  variables?: Array<{ key: string; value: string }>;
}

export function runPipelineBody(args: RunPipelineArgs): RunPipelineBody {
  const body: RunPipelineBody = { target: { type: 'pipeline_ref_target', ref_type: 'branch', ref_name: args.branch } };
  if (args.pipeline !== undefined) body.target.selector = { type: 'custom', pattern: args.pipeline };
  const variables = Object.entries(args.variables ?? {});
  if (variables.length > 0) body.variables = variables.map(([key, value]) => ({ key, value }));
  return body;
}

export const pipelinePath = (args: { workspace: string; repoSlug: string; pipelineUuid: string }): string =>
  `${repoPath(args)}/pipelines/${uuidSegment(args.pipelineUuid)}`;

export const LIST_PIPELINES: RoutedToolSpec<typeof ListPipelinesArgs, typeof CursorEnvelope> = {
  name: 'bb_list_pipelines',
  title: 'List Bitbucket pipelines',
  description:
    "List a repository's pipeline runs, newest first. Result {data, nextCursor} as for pull requests. " +
    'Project with jq, e.g. "values[*].{uuid: uuid, number: build_number, state: state.name, result: state.result.name, branch: target.ref_name}"; a failed one: bb_get_pipeline_step_log.',
  annotations: READ,
  input: ListPipelinesArgs,
  envelope: CursorEnvelope,
  toolset: 'bitbucket.pipelines',
  // Bitbucket lists the oldest first unless asked; its `next` URL drops `sort`, so it is sent on every page.
  route: (args: Static<typeof ListPipelinesArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/pipelines`,
    query: { sort: '-created_on', ...pagingFromCursor(args.cursor) },
  }),
};

export const GET_PIPELINE_STEP_LOG: RoutedToolSpec<typeof StepLogArgs> = {
  name: 'bb_get_pipeline_step_log',
  title: 'Read the log of a Bitbucket pipeline step',
  description:
    "The last tailLines lines of a pipeline step's log as text, escape codes stripped and repeated lines collapsed; without stepUuid, the first failed step's. " +
    'The whole log is saved as an artifact the result names: page through it with artifact_read, encoding "utf8".',
  annotations: READ,
  input: StepLogArgs,
  savesArtifacts: true,
  toolset: 'bitbucket.pipelines',
  // Without a step, the pipeline's steps are read first to choose one.
  route: (args: StepLogArgs) =>
    args.stepUuid === undefined
      ? { method: 'GET', path: `${pipelinePath(args)}/steps`, query: { pagelen: 100 } }
      : { method: 'GET', path: `${pipelinePath(args)}/steps/${uuidSegment(args.stepUuid)}/log` },
};

export const RUN_PIPELINE: RoutedToolSpec<typeof RunPipelineArgs, typeof ReadEnvelope> = {
  name: 'bb_run_pipeline',
  title: 'Run a Bitbucket pipeline',
  description:
    "Run a branch's pipeline, or a custom pipeline by name, with optional variables. Result {data}: the pipeline started {uuid, buildNumber, state, url}. Sent once, never retried.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: RunPipelineArgs,
  envelope: ReadEnvelope,
  toolset: 'bitbucket.pipelines',
  route: (args: RunPipelineArgs) => ({ method: 'POST', path: `${repoPath(args)}/pipelines`, body: runPipelineBody(args) }),
};
