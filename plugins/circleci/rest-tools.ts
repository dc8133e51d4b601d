import Type, { type Static } from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { CacheInfo } from '../../core/plugin/upstream-types.js';
import { anyJsonValue, renderingArgs } from '../../core/schema/common-args.js';
import type { CircleciDeps } from './circleci-deps.js';
import { CircleCiReadEnvelope } from './read-envelope.js';

// The CircleCI v2 API as it is: a cached read passthrough (`{data, cache}`) and write passthroughs (text only,
// never cached, never retried).

const Path = Type.String({
  minLength: 1,
  description: 'Path under /api/v2, e.g. "/project/gh/ORG/REPO/pipeline". Never a full URL.',
});
const QueryParams = Type.Optional(
  Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
    description: 'Query parameters, e.g. {"branch": "main"}.',
  }),
);
const Body = Type.Optional(Type.Record(Type.String(), anyJsonValue(), { description: 'JSON request body.' }));

export const GetArgs = Type.Object(
  {
    path: Path,
    queryParams: QueryParams,
    fresh: Type.Optional(Type.Boolean({ description: 'true: skip the HTTP cache.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const WriteArgs = Type.Object({ path: Path, queryParams: QueryParams, body: Body, ...renderingArgs }, { additionalProperties: false });

export const GET = defineTool({
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
  handler: async (ctx, circleci: CircleciDeps) => {
    const response = await circleci.upstream.send(ctx, ctx.route);
    // Without the cache plugin (disabled, or HTTP_CACHE_ENABLED=false) every answer is a fresh fetch.
    const cache: CacheInfo = response.cache ?? { hit: false, ageMs: 0, fetchedAt: new Date(circleci.clock.now()).toISOString() };
    return { value: response.body, meta: { cache } };
  },
});

/**
 * A write that went through must never look failed (the model would send it again): a 2xx body that is
 * empty or not JSON is shown as it is rather than turned into an error.
 */
async function sendWrite(ctx: ToolContext, circleci: CircleciDeps): Promise<ToolOutput> {
  const { route } = ctx;
  const response = await circleci.upstream.send(ctx, route, { expect: 'lenient' });
  if (response.kind === 'empty') return { text: `CircleCI answered ${response.status} to ${route.method} ${route.path} with no body: the request succeeded.` };
  return { value: response.body };
}

/**
 * A write passthrough: sent once, never retried or cached. Whether it is idempotent or destructive is what its
 * HTTP method says (a PUT replaces, a DELETE removes).
 */
function writeTool(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', description: string) {
  return defineTool({
    name: `circleci_${method.toLowerCase()}`,
    title: `CircleCI API ${method}`,
    description,
    annotations: { readOnlyHint: false, destructiveHint: method === 'DELETE', idempotentHint: method === 'PUT' || method === 'DELETE', openWorldHint: true },
    input: WriteArgs,
    toolset: 'circleci.rest',
    route: (args: Static<typeof WriteArgs>) => ({ method, path: args.path, query: args.queryParams, body: args.body }),
    handler: (ctx, circleci: CircleciDeps) => sendWrite(ctx, circleci),
  });
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
