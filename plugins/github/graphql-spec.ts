import Type, { type Static } from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import type { GraphqlToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { READ } from './shared-args.js';

/**
 * The shape guards of `github_graphql`, an operator's to set: GitHub bounds a query's cost itself (nodes, rate
 * limit points), but a depth or field bound refused here costs nothing of the token's hourly budget.
 */
export const GithubGraphqlSettings = Type.Object({
  GITHUB_GRAPHQL_MAX_DEPTH: Type.Integer({ minimum: 1, default: 15, description: 'Most levels of nested fields a github_graphql document may have.' }),
  GITHUB_GRAPHQL_MAX_FIELDS: Type.Integer({
    minimum: 1,
    default: 1000,
    description: 'Most fields a github_graphql document may select, aliases and fragment spreads counted.',
  }),
  GITHUB_GRAPHQL_MAX_BYTES: Type.Integer({
    minimum: 1,
    default: 102_400,
    description: 'Most bytes a github_graphql document may have, comments and layout included (it is sent printed, without them).',
  }),
  GITHUB_GRAPHQL_MUTATIONS: Type.Boolean({
    default: false,
    description: 'Let github_graphql send mutations (it is then listed as a write; MCP_READ_ONLY still refuses them).',
  }),
});

export const GraphqlArgs = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      description: 'A GraphQL document, e.g. "query { viewer { login } }". Queries only, unless the operator allows mutations.',
    }),
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Values of the variables the document declares.' })),
    operationName: Type.Optional(Type.String({ minLength: 1, description: 'The operation to run, when the document holds several.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GRAPHQL: GraphqlToolSpec<typeof GraphqlArgs, typeof ReadEnvelope> = {
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
  },
  route: (args: Static<typeof GraphqlArgs>) => ({
    graphql: { document: args.query, variables: args.variables, operationName: args.operationName },
  }),
};
