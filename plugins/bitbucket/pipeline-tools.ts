import Type, { type Static } from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { refusePipelinesOnDataCenter } from './deployment.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CursorEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { page, type BitbucketDeps } from './bitbucket-deps.js';
import { Cursor, pagingFromCursor } from './page-cursor.js';
import { pipelinePath, READ, repoPath, RepoSlug, Uuid, uuidSegment, Workspace } from './repo-args.js';
import { stepLogText } from './step-log.js';
import { startedPipeline } from './write-results.js';
import { wholeResult } from '../../core/plugin/provenance.js';
import { bitbucketRepo } from './provenance.js';
import { NO_LABELS } from '../../core/vendor/failure-reporter.js';
import { detachableWhenWaiting, RunWaitArgs } from '../../core/vendor/run-wait.js';
import { pipelineReads, waitForPipeline } from './run-wait.js';

// Bitbucket Pipelines (Cloud API 2.0): list runs, read a step's log, run a pipeline.

export const ListPipelinesArgs = Type.Object({ workspace: Workspace, repoSlug: RepoSlug, cursor: Cursor, ...renderingArgs }, { additionalProperties: false });

export const StepLogArgs = Type.Object(
  {
    workspace: Workspace,
    repoSlug: RepoSlug,
    pipelineUuid: Uuid('Pipeline uuid.'),
    stepUuid: Type.Optional(Uuid('Step uuid (default: the first failed step).')),
    tailLines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Lines to show from the end (default 500).' })),
  },
  { additionalProperties: false },
);

export type StepLogArgs = Static<typeof StepLogArgs>;

export const RunPipelineArgs = Type.Object(
  {
    workspace: Workspace,
    repoSlug: RepoSlug,
    branch: Type.String({ minLength: 1, description: 'Branch to run on.' }),
    pipeline: Type.Optional(Type.String({ minLength: 1, description: "A custom pipeline's name; default: the branch's pipeline." })),
    variables: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z_]\\w*$' }), Type.String(), {
        additionalProperties: false,
        description: 'Pipeline variables, e.g. {"DEPLOY_ENV": "staging"}.',
      }),
    ),
    ...RunWaitArgs,
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

export const LIST_PIPELINES = defineTool({
  name: 'bb_list_pipelines',
  title: 'List Bitbucket pipelines',
  description:
    "A repository's pipelines, newest first. Result {data, nextCursor} as bb_list_pull_requests. " +
    'jq e.g. "values[*].{uuid: uuid, n: build_number, result: state.result.name, branch: target.ref_name}".',
  annotations: READ,
  input: ListPipelinesArgs,
  envelope: CursorEnvelope,
  toolset: 'bitbucket.pipelines',
  // Bitbucket lists the oldest first unless asked; its `next` URL drops `sort`, so it is sent on every page.
  route: (args: Static<typeof ListPipelinesArgs>, upstream?: UpstreamBinding) => {
    refusePipelinesOnDataCenter(upstream, 'bb_list_pipelines');
    return { method: 'GET', path: `${repoPath(args)}/pipelines`, query: { sort: '-created_on', ...pagingFromCursor(args.cursor) } };
  },
  handler: (ctx, bitbucket: BitbucketDeps) => page(bitbucket, ctx),
});

export const GET_PIPELINE_STEP_LOG = defineTool({
  name: 'bb_get_pipeline_step_log',
  provenance: { labels: true },
  title: 'Read the log of a Bitbucket pipeline step',
  description:
    'The last tailLines lines of a pipeline step\'s log, cleaned; the whole log saved as an artifact the result names (artifact_read, encoding "utf8").',
  annotations: READ,
  input: StepLogArgs,
  savesArtifacts: true,
  toolset: 'bitbucket.pipelines',
  // Without a step, the pipeline's steps are read first to choose one.
  route: (args: StepLogArgs, upstream?: UpstreamBinding) => {
    refusePipelinesOnDataCenter(upstream, 'bb_get_pipeline_step_log');
    return args.stepUuid === undefined
      ? { method: 'GET', path: `${pipelinePath(args)}/steps`, query: { pagelen: 100 } }
      : { method: 'GET', path: `${pipelinePath(args)}/steps/${uuidSegment(args.stepUuid)}/log` };
  },
  // Then the log of the step chosen.
  further: (args: StepLogArgs) => [{ method: 'GET', path: `${pipelinePath(args)}/steps/*/log` }],
  // A step's output says nothing of whose code ran (a fork's pull request builds the fork's): untrusted, fenced whole.
  handler: async (ctx, bitbucket: BitbucketDeps) => ({
    text: await stepLogText(ctx, bitbucket.upstream, bitbucket),
    provenance: wholeResult(
      `${ctx.args.workspace}/${ctx.args.repoSlug} pipeline step (log)`,
      bitbucketRepo(ctx.args),
      'build output; whether the pipeline built a fork is not looked up',
    ),
  }),
});

export const RUN_PIPELINE = defineTool({
  name: 'bb_run_pipeline',
  title: 'Run a Bitbucket pipeline',
  description: "Run a branch's pipeline, or a custom one by name, with variables. Result {data}: {uuid, buildNumber, state, url}. Sent once.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: RunPipelineArgs,
  envelope: ReadEnvelope,
  toolset: 'bitbucket.pipelines',
  route: (args: RunPipelineArgs, upstream?: UpstreamBinding) => {
    refusePipelinesOnDataCenter(upstream, 'bb_run_pipeline');
    return { method: 'POST', path: `${repoPath(args)}/pipelines`, body: runPipelineBody(args) };
  },
  further: (args: RunPipelineArgs) => (args.wait === true ? pipelineReads(args) : []),
  // A failed pipeline waited on is answered with its failure report, which quotes build logs
  // and saves the whole log as an artifact.
  provenance: { labels: true },
  savesArtifacts: true,
  detachable: detachableWhenWaiting,
  handler: async (ctx, bitbucket: BitbucketDeps) => {
    const response = await bitbucket.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    const result = startedPipeline(response, ctx.args, bitbucket.webBase);
    if (ctx.args.wait !== true) return { value: result, provenance: NO_LABELS };
    if (typeof result.uuid !== 'string')
      return { value: { ...result, status: 'Bitbucket named no pipeline uuid, so it was not waited for.' }, provenance: NO_LABELS };
    const waited = await waitForPipeline(ctx, bitbucket, { ...ctx.args, pipelineUuid: result.uuid }, ctx.args.timeoutSeconds);
    return { value: { ...result, ...waited.value }, provenance: waited.provenance };
  },
});
