import Type, { type Static } from 'typebox';
import type { RoutedToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CircleCiReadEnvelope } from './read-envelope.js';

const Path = Type.String({
  minLength: 1,
  description: 'Path under /api/v2, e.g. "/project/gh/ORG/REPO/pipeline". Never a full URL.',
});
const QueryParams = Type.Optional(
  Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
    description: 'Query parameters, e.g. {"branch": "main"}.',
  }),
);
const Body = Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON request body.' }));

export const GetArgs = Type.Object(
  {
    path: Path,
    queryParams: QueryParams,
    fresh: Type.Optional(Type.Boolean({ description: 'true: skip the HTTP cache.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const LogsArgs = Type.Object(
  {
    projectSlug: Type.String({
      pattern: '^(gh|github|bb|bitbucket)/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$',
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

export const WriteArgs = Type.Object({ path: Path, queryParams: QueryParams, body: Body, ...renderingArgs }, { additionalProperties: false });

export const GET: RoutedToolSpec<typeof GetArgs, typeof CircleCiReadEnvelope> = {
  name: 'circleci_get',
  title: 'CircleCI API GET',
  description: [
    'Read-only GET of the CircleCI v2 API, e.g. "/project/gh/ORG/REPO/pipeline", "/pipeline/{id}/workflow", "/workflow/{id}/job", "/insights/gh/ORG/REPO/workflows".',
    'Result {data, cache}: cache says whether the answer came from the HTTP cache (hit, ageMs, fetchedAt). Pipelines, workflows, jobs and their lists are never cached.',
    'Continue a list with queryParams {"page-token": next_page_token}. Project with jq, e.g. "items[*].{id: id, number: number, state: state}".',
  ].join(' '),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  input: GetArgs,
  envelope: CircleCiReadEnvelope,
  toolset: 'circleci.rest',
  cache: true,
  route: (args: Static<typeof GetArgs>) => ({ method: 'GET', path: args.path, query: args.queryParams }),
};

/**
 * A write passthrough: sent once, never retried or cached. Whether it is idempotent or destructive is what its
 * HTTP method says (a PUT replaces, a DELETE removes).
 */
function writeTool(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', description: string): RoutedToolSpec<typeof WriteArgs> {
  return {
    name: `circleci_${method.toLowerCase()}`,
    title: `CircleCI API ${method}`,
    description,
    annotations: { readOnlyHint: false, destructiveHint: method === 'DELETE', idempotentHint: method === 'PUT' || method === 'DELETE', openWorldHint: true },
    input: WriteArgs,
    toolset: 'circleci.rest',
    route: (args: Static<typeof WriteArgs>) => ({ method, path: args.path, query: args.queryParams, body: args.body }),
  };
}

export const POST = writeTool(
  'POST',
  'POST to the CircleCI v2 API: trigger a pipeline ("/project/gh/ORG/REPO/pipeline", body {"branch": "main"}), rerun or cancel a workflow ("/workflow/{id}/rerun", "/workflow/{id}/cancel"), approve a job. ' +
    'Sent once, never retried or cached: after a timeout, check with circleci_get before sending again.',
);
export const PUT = writeTool(
  'PUT',
  'PUT to the CircleCI v2 API, e.g. set a context environment variable ("/context/{id}/environment-variable/NAME", body {"value": "..."}). Sent once, never retried or cached.',
);
export const PATCH = writeTool(
  'PATCH',
  'PATCH on the CircleCI v2 API, e.g. change a schedule ("/schedule/{id}") or project settings. Sent once, never retried or cached.',
);
export const DELETE = writeTool(
  'DELETE',
  'DELETE on the CircleCI v2 API, e.g. an environment variable ("/project/gh/ORG/REPO/envvar/NAME") or a schedule. Irreversible; sent once.',
);

export const LOGS: RoutedToolSpec<typeof LogsArgs> = {
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
};
