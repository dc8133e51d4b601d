import { renderingArgs, Type } from 'mcp-devtools/plugin';

const Slug = (what: string, example: string) => Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: `${what} slug, e.g. "${example}".` });

export const ListIssuesArgs = Type.Object(
  {
    organization: Slug('Organization', 'acme'),
    project: Slug('Project', 'web'),
    query: Type.Optional(Type.String({ maxLength: 500, description: 'Sentry search, e.g. "is:unresolved level:error" (the default is is:unresolved).' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Where to continue: the nextCursor of the previous result. Leave out for the first page.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GetArgs = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'Sentry API path relative to /api/0, e.g. "/organizations/acme/issues/123/".' }),
    queryParams: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Query parameters, e.g. {"statsPeriod": "24h"}.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
