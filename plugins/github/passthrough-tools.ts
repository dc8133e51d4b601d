import Type, { type Static } from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { anyJsonValue, renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { GithubGraphqlSettings } from './github-client.js';
import type { GithubDeps } from './github-deps.js';
import { graphqlAnswer } from './graphql-answer.js';
import { READ } from './shared-args.js';
import { passthroughItems, VISIBILITY_LOOKUP } from './provenance.js';

// The read-only passthroughs, for what the typed tools do not cover: any REST path (github_get) and any GraphQL
// query (github_graphql).

export const GetArgs = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'REST API path, e.g. "/repos/OWNER/REPO/actions/artifacts". Never a full URL.' }),
    queryParams: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), { description: 'Query parameters, e.g. {"per_page": 50}.' }),
    ),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GET = defineTool({
  name: 'github_get',
  toolset: 'github.repos',
  title: 'GitHub REST API GET',
  description: [
    'Read-only GET of any GitHub REST API path the other github_* tools do not cover (artifacts, workflows, releases...).',
    'Lists take per_page and page in queryParams: ask for page+1 until a page comes back short.',
  ].join(' '),
  annotations: READ,
  input: GetArgs,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof GetArgs>) => ({ method: 'GET', path: args.path, query: args.queryParams }),
  handler: async (ctx, github: GithubDeps) => {
    try {
      const value = (await github.upstream.send(ctx, ctx.route)).body;
      return { value, provenance: await passthroughItems(github, ctx, ctx.route.path, value) };
    } catch (error) {
      // Some GitHub reads answer a bodiless 204 for "yes" (GET /user/following/{user}): a success, not a bad body.
      const { code, status } = error as { code?: string; status?: number };
      if (code === 'upstream_empty_body' && status === 204)
        return {
          text: `GitHub answered 204 No Content for GET ${ctx.route.path}: the request succeeded and there is no body.`,
          provenance: { labels: [], warnings: [] },
        };
      throw error;
    }
  },
});

export const GraphqlArgs = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      description: 'A GraphQL document, e.g. "query { viewer { login } }". Queries only, unless the operator allows mutations.',
    }),
    variables: Type.Optional(Type.Record(Type.String(), anyJsonValue(), { description: 'Values of the variables the document declares.' })),
    operationName: Type.Optional(Type.String({ minLength: 1, description: 'The operation to run, when the document holds several.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GRAPHQL = defineTool({
  name: 'github_graphql',
  toolset: 'github.repos',
  title: 'GitHub GraphQL API query',
  description: [
    "A query to GitHub's GraphQL API, for what REST serves poorly (projects, discussions, many objects at once).",
    'Result: {data, errors?} as GitHub answers. Page a connection with first and after: pageInfo.endCursor.',
  ].join(' '),
  annotations: READ,
  input: GraphqlArgs,
  envelope: ReadEnvelope,
  graphql: {
    limits: (settings: Settings) => {
      const s = settings.of(GithubGraphqlSettings);
      return {
        maxDepth: s.GITHUB_GRAPHQL_MAX_DEPTH,
        maxFields: s.GITHUB_GRAPHQL_MAX_FIELDS,
        maxBytes: s.GITHUB_GRAPHQL_MAX_BYTES,
        mutations: s.GITHUB_GRAPHQL_MUTATIONS,
        settings: {
          maxDepth: 'GITHUB_GRAPHQL_MAX_DEPTH',
          maxFields: 'GITHUB_GRAPHQL_MAX_FIELDS',
          maxBytes: 'GITHUB_GRAPHQL_MAX_BYTES',
          mutations: 'GITHUB_GRAPHQL_MUTATIONS',
        },
      };
    },
    // A partial answer (what resolved, and GitHub's errors for what did not) is returned whole.
    partialData: true,
  },
  route: (args: Static<typeof GraphqlArgs>) => ({
    graphql: { document: args.query, variables: args.variables, operationName: args.operationName },
  }),
  // The request gate parsed the document as it is sent: a mutation here went through GITHUB_GRAPHQL_MUTATIONS.
  handler: async (ctx, github: GithubDeps) => ({ value: graphqlAnswer((await github.upstream.send(ctx, ctx.route)).body) }),
});
