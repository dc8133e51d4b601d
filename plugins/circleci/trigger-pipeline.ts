import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { FROM_UPSTREAM, type FurtherRoute } from '../../core/plugin/tool-spec.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { UpstreamRequest } from '../../core/plugin/upstream-types.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import type { CircleciDeps } from './circleci-deps.js';
import { branch, ProjectSlug, WRITE } from './pipeline-tools.js';
import { triggeredPipelineResult } from './write-results.js';
import { NO_LABELS } from '../../core/vendor/failure-reporter.js';
import { detachableWhenWaiting, RunWaitArgs } from '../../core/vendor/run-wait.js';
import { pipelineWorkflows, waitForWorkflows, WORKFLOW_READS } from './run-wait.js';

/*
 * CircleCI serves two triggers. `POST /project/{slug}/pipeline` works only for projects of GitHub OAuth and
 * Bitbucket Cloud organizations; a project of a GitHub App (or GitLab) organization, whose slug is
 * `circleci/ORG_ID/PROJECT_ID`, is triggered by `POST /project/{slug}/pipeline/run`, which names a pipeline
 * definition. That one is given (definitionId), or looked up: the project's only definition.
 */

export const TriggerArgs = Type.Object(
  {
    projectSlug: ProjectSlug,
    branch: Type.Optional(branch('Default: the default branch.')),
    definitionId: Type.Optional(Type.String({ description: 'Pipeline definition id; default: the only one.' })),
    parameters: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer(), Type.Boolean()]), {
        description: 'Pipeline parameters, e.g. {"deploy_prod": true}.',
      }),
    ),
    ...RunWaitArgs,
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export type TriggerArgs = Static<typeof TriggerArgs>;

/** CircleCI's body of `POST /project/{slug}/pipeline` (GitHub OAuth and Bitbucket Cloud projects). */
export interface TriggerBody {
  branch?: string;
  parameters?: Record<string, string | number | boolean>;
}

/** CircleCI's body of `POST /project/{slug}/pipeline/run`: the definition, and the branch for config and checkout alike. */
export interface RunBody {
  definition_id?: string | typeof FROM_UPSTREAM;
  config?: { branch: string };
  checkout?: { branch: string };
  parameters?: Record<string, string | number | boolean>;
}

/** Whether a trigger goes through a pipeline definition: a GitHub App project, or a definition named. */
const byDefinition = (args: TriggerArgs): boolean => args.projectSlug.startsWith('circleci/') || args.definitionId !== undefined;

/** A `circleci/ORG_ID/PROJECT_ID` slug's project id, which the pipeline definitions are listed by. */
const definitionsPath = (args: TriggerArgs): string => `/projects/${encodeURIComponent(args.projectSlug.split('/')[2] ?? '')}/pipeline-definitions`;

function runBody(args: TriggerArgs, definition: string | typeof FROM_UPSTREAM | undefined): RunBody {
  const body: RunBody = {};
  if (definition !== undefined) body.definition_id = definition;
  if (args.branch !== undefined) {
    body.config = { branch: args.branch };
    body.checkout = { branch: args.branch };
  }
  if (args.parameters !== undefined) body.parameters = args.parameters;
  return body;
}

function route(args: TriggerArgs): UpstreamRequest {
  if (byDefinition(args)) return { method: 'POST', path: `/project/${args.projectSlug}/pipeline/run`, body: runBody(args, args.definitionId) };
  const body: TriggerBody = {};
  if (args.branch !== undefined) body.branch = args.branch;
  if (args.parameters !== undefined) body.parameters = args.parameters;
  return { method: 'POST', path: `/project/${args.projectSlug}/pipeline`, body };
}

interface Definition {
  id?: unknown;
  name?: unknown;
}

/**
 * The project's one pipeline definition; several or none is a sentence that says what to pass. The arguments
 * matched the schema, so this is not `invalid_arguments` (that code means the schema refused them): it is what
 * the project upstream holds that stops the run.
 */
async function onlyDefinition(ctx: ToolContext<typeof TriggerArgs>, circleci: CircleciDeps): Promise<string> {
  const listed = (await circleci.upstream.send(ctx, { method: 'GET', path: definitionsPath(ctx.args) })).body as { items?: Definition[] } | null;
  const items = (Array.isArray(listed?.items) ? listed.items : []).filter((d): d is { id: string; name?: unknown } => typeof d?.id === 'string');
  if (items.length === 1) return items[0]!.id;
  const named = items.map((d) => `${typeof d.name === 'string' ? JSON.stringify(d.name) : 'unnamed'} (${d.id})`).join(', ');
  throw new ToolError(
    'upstream_http_error',
    items.length === 0
      ? `${ctx.args.projectSlug} has no pipeline definition CircleCI lists: add one in Project Settings > Pipelines. Nothing was triggered.`
      : `${ctx.args.projectSlug} has ${items.length} pipeline definitions: ${named}. Pass the one to run as definitionId. Nothing was triggered.`,
  );
}

export const TRIGGER_PIPELINE = defineTool({
  name: 'circleci_trigger_pipeline',
  title: 'Trigger a CircleCI pipeline',
  description: 'Start a pipeline, with parameters. Result {data}: {id, number, state, branch, url}. Sent once.',
  annotations: WRITE,
  input: TriggerArgs,
  envelope: ReadEnvelope,
  toolset: 'circleci.pipelines',
  route,
  // A GitHub App project without definitionId: its definitions, then the run with the one found.
  // With wait: the pipeline's workflows and their jobs.
  further: (args: TriggerArgs): FurtherRoute[] => [
    ...(byDefinition(args) && args.definitionId === undefined
      ? [
          { method: 'GET' as const, path: definitionsPath(args) },
          { method: 'POST' as const, path: `/project/${args.projectSlug}/pipeline/run`, body: runBody(args, FROM_UPSTREAM) },
        ]
      : []),
    ...(args.wait === true ? WORKFLOW_READS : []),
  ],
  // A failed pipeline waited on is answered with its failure report, which quotes build logs
  // and saves the whole log as an artifact.
  provenance: { labels: true },
  savesArtifacts: true,
  detachable: detachableWhenWaiting,
  handler: async (ctx, circleci: CircleciDeps) => {
    const found = byDefinition(ctx.args) && ctx.args.definitionId === undefined ? await onlyDefinition(ctx, circleci) : undefined;
    const request = found === undefined ? ctx.route : { ...ctx.route, body: runBody(ctx.args, found) };
    const response = await circleci.upstream.send(ctx, request, { expect: 'lenient' });
    const result = triggeredPipelineResult(response, ctx.args, circleci.webApp);
    if (ctx.args.wait !== true) return { value: result, provenance: NO_LABELS };
    if (typeof result.id !== 'string')
      return { value: { ...result, status: 'CircleCI named no pipeline id, so it was not waited for.' }, provenance: NO_LABELS };
    const waited = await waitForWorkflows(ctx, circleci, pipelineWorkflows(ctx, circleci, result.id), ctx.args.timeoutSeconds);
    return { value: { ...result, ...waited.value }, provenance: waited.provenance };
  },
});
