import { CursorEnvelope, dataOf, inject, Plugin, READ, ReadEnvelope, TOKENS, Tool, ToolError, WRITE, type GraphqlRoute, type Settings, type ToolContext, type ToolOutput, type UpstreamClient } from 'mcp-devtools/plugin';
import { CREATE_ISSUE, LIST_ISSUES } from './documents.js';
import { createLinearClient, LinearSettings } from './linear-client.js';
import { CreateIssueArgs, GraphqlArgs, ListIssuesArgs } from './tool-args.js';

interface IssuesPage {
  issues: { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/**
 * Linear, through its GraphQL API: a team's issues paged by pageInfo, an issue created from Markdown, and a
 * read-only passthrough for any other query. The list is a query, so it is a read (listed as one, served under
 * --read-only, cached); the create is a mutation, so it is a write that policy rules decide by its root field.
 */
@Plugin({ name: 'linear', version: '1.0.0', settings: LinearSettings })
export class LinearPlugin {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = createLinearClient(settings);
  }

  @Tool({
    name: 'linear_list_issues',
    title: 'List Linear issues',
    description:
      'List issues of a Linear team, descriptions in Markdown. The result is {data, nextCursor}: data is the page of issues after jq; ' +
      'nextCursor is the cursor to pass as "cursor" for more, or null on the last page.',
    annotations: READ,
    input: ListIssuesArgs,
    envelope: CursorEnvelope,
    cache: true,
    graphql: { documents: [LIST_ISSUES] },
    route: (args) => ({ graphql: { document: LIST_ISSUES, variables: { team: args.team, first: args.first ?? 25, after: args.cursor } } }),
  })
  async listIssues(ctx: ToolContext<typeof ListIssuesArgs, GraphqlRoute>): Promise<ToolOutput<typeof CursorEnvelope>> {
    const { issues } = dataOf<IssuesPage>((await this.upstream.send(ctx, ctx.route)).body);
    return { value: issues.nodes, meta: { nextCursor: issues.pageInfo.hasNextPage ? issues.pageInfo.endCursor : null } };
  }

  @Tool({
    name: 'linear_create_issue',
    title: 'Create a Linear issue',
    description: 'Create an issue in a team, its description in Markdown. Answers with its identifier, title and URL.',
    annotations: WRITE,
    input: CreateIssueArgs,
    envelope: ReadEnvelope,
    graphql: { documents: [CREATE_ISSUE] },
    route: (args) => ({ graphql: { document: CREATE_ISSUE, variables: { input: args } } }),
  })
  async createIssue(ctx: ToolContext<typeof CreateIssueArgs, GraphqlRoute>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const { issueCreate } = dataOf<{ issueCreate: { success: boolean; issue: unknown } }>((await this.upstream.send(ctx, ctx.route)).body);
    if (!issueCreate.success) throw new ToolError('upstream_http_error', 'Linear did not create the issue (success: false).');
    return { value: issueCreate.issue };
  }

  @Tool({
    name: 'linear_graphql',
    title: 'Linear GraphQL query',
    description:
      "Any query to Linear's GraphQL API (no mutation): teams, projects, cycles, users. Result {data, errors?} as Linear answers: where part of the query failed, data holds what was read and errors says what was not.",
    annotations: READ,
    input: GraphqlArgs,
    envelope: ReadEnvelope,
    graphql: { limits: { maxDepth: 10, maxFields: 500 }, partialData: true },
    route: (args) => ({ graphql: { document: args.query, variables: args.variables } }),
  })
  async graphql(ctx: ToolContext<typeof GraphqlArgs, GraphqlRoute>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await this.upstream.send(ctx, ctx.route)).body };
  }
}
