import Type, { type Static } from 'typebox';
import type { ToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CircleCiReadEnvelope } from '../../core/schema/envelopes.js';

const Path = Type.String({
  minLength: 1,
  description: 'API path relative to /api/v2, e.g. "/project/gh/acme/api/pipeline" (a path starting with /api/v2 is taken as is). Never a full URL.',
});
const QueryParams = Type.Optional(
  Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
    description: 'Query parameters, e.g. {"branch": "main"} or {"page-token": "<next_page_token of the previous page>"}.',
  }),
);
const Body = Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON request body, e.g. {"branch": "main", "parameters": {"deploy": true}}.' }));

export const GetArgs = Type.Object(
  {
    path: Path,
    queryParams: QueryParams,
    fresh: Type.Optional(Type.Boolean({ description: 'true: skip the HTTP cache and fetch from CircleCI now (the fresh answer is cached again).' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const WriteArgs = Type.Object({ path: Path, queryParams: QueryParams, body: Body, ...renderingArgs }, { additionalProperties: false });

export const GET: ToolSpec<typeof GetArgs> = {
  name: 'circleci_get',
  title: 'CircleCI API GET',
  description: [
    'Read-only GET of the CircleCI v2 API, e.g. "/project/gh/ORG/REPO/pipeline" (recent pipelines), "/pipeline/{id}/workflow", "/workflow/{id}/job", "/project/gh/ORG/REPO/job/{number}", "/insights/gh/ORG/REPO/workflows".',
    'The result is {data, cache}: data is CircleCI\'s body after jq; cache says whether it came from the server\'s HTTP cache (hit), how old it is (ageMs) and when it was fetched (fetchedAt). Pass fresh: true for an answer fetched now.',
    'Status paths (a pipeline, a workflow, a job) are never cached. Lists continue with CircleCI\'s next_page_token: pass it back as queryParams {"page-token": "..."}; null means the last page.',
    'Use jq to keep what you need, e.g. "items[*].{id: id, number: number, state: state, branch: vcs.branch}".',
  ].join(' '),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  input: GetArgs,
  envelope: CircleCiReadEnvelope,
  cache: true,
  route: (args: Static<typeof GetArgs>) => ({ method: 'GET', path: args.path, query: args.queryParams }),
};

export const POST: ToolSpec<typeof WriteArgs> = {
  name: 'circleci_post',
  title: 'CircleCI API POST',
  description: [
    'POST to the CircleCI v2 API: trigger a pipeline ("/project/gh/ORG/REPO/pipeline" with body {"branch": "main"}), rerun or cancel a workflow ("/workflow/{id}/rerun", "/workflow/{id}/cancel"), approve a job, create an environment variable...',
    'Sent once, never retried and never cached: if the result is an error such as a timeout, check the state with circleci_get before sending again.',
  ].join(' '),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: WriteArgs,
  route: (args: Static<typeof WriteArgs>) => ({ method: 'POST', path: args.path, query: args.queryParams, body: args.body }),
};

export const DELETE: ToolSpec<typeof WriteArgs> = {
  name: 'circleci_delete',
  title: 'CircleCI API DELETE',
  description: 'DELETE on the CircleCI v2 API, e.g. an environment variable ("/project/gh/ORG/REPO/envvar/NAME"), a context or a schedule. Irreversible; sent once, never retried.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  input: WriteArgs,
  route: (args: Static<typeof WriteArgs>) => ({ method: 'DELETE', path: args.path, query: args.queryParams, body: args.body }),
};
