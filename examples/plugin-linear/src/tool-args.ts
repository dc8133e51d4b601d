import { renderingArgs, Type } from 'mcp-devtools/plugin';

export const ListIssuesArgs = Type.Object(
  {
    team: Type.String({ pattern: '^[A-Z0-9]{1,7}$', description: 'Team key, e.g. "ENG".' }),
    first: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Issues per page (default 25).' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The nextCursor of the previous result. Leave out for the first page.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const CreateIssueArgs = Type.Object(
  {
    teamId: Type.String({ minLength: 1, description: 'Team id (a UUID), as linear_graphql answers for teams { nodes { id key } }.' }),
    title: Type.String({ minLength: 1, maxLength: 255 }),
    description: Type.Optional(Type.String({ description: 'Markdown.' })),
    priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 4, description: '0 none, 1 urgent, 2 high, 3 medium, 4 low.' })),
  },
  { additionalProperties: false },
);

export const GraphqlArgs = Type.Object(
  {
    query: Type.String({ minLength: 1, description: 'A GraphQL query (no mutation), e.g. "query { viewer { name } }".' }),
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Values of the variables the query declares.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
