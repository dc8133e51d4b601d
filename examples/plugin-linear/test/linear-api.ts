import { buildSchema, graphql, GraphQLError } from 'graphql';
import type { MockReply, MockUpstream, RecordedRequest } from 'mcp-devtools/testing';

// Linear's GraphQL endpoint as a loopback server: POST /graphql with {query, variables}, the API key as the whole
// Authorization header. Documents are parsed, validated and run (graphql-js) against a slice of Linear's schema;
// a refused document is 400 with `errors` carrying Linear's extensions (type, code, userPresentableMessage).

const SCHEMA = buildSchema(`
  type Query { issues(first: Int, after: String, filter: IssueFilter): IssueConnection! viewer: User! }
  type Mutation { issueCreate(input: IssueCreateInput!): IssuePayload! }
  input IssueFilter { team: TeamFilter }
  input TeamFilter { key: StringComparator }
  input StringComparator { eq: String }
  input IssueCreateInput { teamId: String! title: String! description: String priority: Int }
  type User { id: ID! name: String! }
  type WorkflowState { name: String! }
  type Issue { id: ID! identifier: String! title: String! description: String priority: Float! url: String! state: WorkflowState! }
  type IssueConnection { nodes: [Issue!]! pageInfo: PageInfo! }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type IssuePayload { success: Boolean! issue: Issue }
`);

export const TEAM_ID = '0e2bd0a6-6e0c-4bde-9d1c-3fdc4a5b8f1e';

const issue = (n: number, title: string, state: string, description: string | null = null) => ({
  id: `9cfb482a-81e3-4154-b5b9-2c805e70a0${String(n).padStart(2, '0')}`,
  identifier: `ENG-${n}`,
  title,
  description,
  priority: n % 5,
  url: `https://linear.app/acme/issue/ENG-${n}`,
  state: { name: state },
});

/** Five issues of team ENG, one with a Markdown description. */
export const ISSUES = [
  issue(1, 'Checkout fails on Safari', 'In Progress'),
  issue(2, 'Slow dashboard query', 'Todo', 'The `orders` query takes **4 s**:\n\n- add an index\n- page it'),
  issue(3, 'Settings page shows undefined', 'In Progress'),
  issue(4, 'Upgrade the payment SDK', 'Done'),
  issue(5, 'Flaky login test', 'Todo'),
];

type Issue = (typeof ISSUES)[number];

function root(created: Issue[]) {
  return {
    viewer: { id: 'u-1', name: 'Ada Lovelace' },
    issues: ({ first = 50, after, filter }: { first?: number; after?: string; filter?: { team?: { key?: { eq?: string } } } }) => {
      const list = filter?.team?.key?.eq === undefined || filter.team.key.eq === 'ENG' ? [...ISSUES, ...created] : [];
      const start = after === undefined ? 0 : list.findIndex((i) => i.id === after) + 1;
      const nodes = list.slice(start, start + first);
      return { nodes, pageInfo: { hasNextPage: start + first < list.length, endCursor: nodes.at(-1)?.id ?? null } };
    },
    issueCreate: ({ input }: { input: { teamId: string; title: string; description?: string; priority?: number } }) => {
      if (input.teamId !== TEAM_ID) throw new GraphQLError('Entity not found: Team', { extensions: { type: 'invalid input', code: 'INPUT_ERROR', userPresentableMessage: 'Could not find referenced Team.' } });
      const made = { ...issue(100 + created.length, input.title, 'Todo', input.description ?? null), priority: input.priority ?? 0 };
      created.push(made);
      return { success: true, issue: made };
    },
  };
}

/** Linear's answer to one POST /graphql. */
async function reply(request: RecordedRequest, apiKey: string, created: Issue[]): Promise<MockReply> {
  if (request.headers.authorization !== apiKey) {
    const message = 'Authentication required, not authenticated';
    return { status: 400, body: { errors: [{ message, extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR', userPresentableMessage: message } }] } };
  }
  const sent = JSON.parse(request.body) as { query: string; variables?: Record<string, unknown>; operationName?: string };
  const result = await graphql({ schema: SCHEMA, source: sent.query, rootValue: root(created), variableValues: sent.variables, operationName: sent.operationName });
  const errors = result.errors?.map((e) => ({
    message: e.message,
    extensions: Object.keys(e.extensions).length > 0 ? e.extensions : { type: 'graphql error', code: 'GRAPHQL_VALIDATION_FAILED', userPresentableMessage: e.message },
  }));
  const refused = result.data === undefined || result.data === null;
  return { status: refused ? 400 : 200, body: JSON.parse(JSON.stringify({ ...(refused ? {} : { data: result.data }), ...(errors ? { errors } : {}) })) };
}

/** Serves Linear's GraphQL endpoint on the mock; returns the issues created through it. */
export function serveLinear(mock: MockUpstream, apiKey: string): Issue[] {
  const created: Issue[] = [];
  mock.on('POST', '/graphql', (request) => reply(request, apiKey, created));
  return created;
}

/** The operations the mock received. */
export function sentOperations(mock: MockUpstream): Array<{ query: string; variables?: Record<string, unknown> }> {
  return mock.requests.map((r) => JSON.parse(r.body) as { query: string; variables?: Record<string, unknown> });
}
