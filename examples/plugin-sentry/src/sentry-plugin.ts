import { CursorEnvelope, inject, nextCursorFromLink, Plugin, READ, ReadEnvelope, TOKENS, Tool, type Settings, type ToolContext, type ToolOutput, type UpstreamClient } from 'mcp-devtools/plugin';
import { createSentryClient, SentrySettings } from './sentry-client.js';
import { GetArgs, ListIssuesArgs } from './tool-args.js';

/**
 * Sentry: a project's issues, paged by cursor, and a read-only passthrough for the rest of the API. Sentry
 * pages with opaque cursors in the Link header (`results="false"` on the last page): the result is
 * `{data, nextCursor}` and the model passes nextCursor back as `cursor`, so every page is the tool's own
 * route, prepared and decided like the first.
 */
@Plugin({ name: 'sentry', version: '1.0.0', settings: SentrySettings })
export class SentryPlugin {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = createSentryClient(settings);
  }

  @Tool({
    name: 'sentry_list_issues',
    title: 'List Sentry issues',
    description:
      'List issues of a Sentry project, most recently seen first (default search is:unresolved). The result is {data, nextCursor}: ' +
      'data is Sentry\'s page of issues after jq; nextCursor is the cursor to pass as "cursor" for more, or null on the last page.',
    annotations: READ,
    input: ListIssuesArgs,
    envelope: CursorEnvelope,
    route: (args) => ({
      method: 'GET',
      path: `/projects/${args.organization}/${args.project}/issues/`,
      query: { query: args.query, cursor: args.cursor },
    }),
  })
  async listIssues(ctx: ToolContext<typeof ListIssuesArgs>): Promise<ToolOutput<typeof CursorEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route);
    return { value: response.body, meta: { nextCursor: nextCursorFromLink(response.headers.get('link')) } };
  }

  @Tool({
    name: 'sentry_get',
    title: 'Sentry API GET',
    description: 'Read-only GET of any Sentry API path (an issue, its events, releases...), relative to /api/0. Use jq (JMESPath) to keep only the fields you need.',
    annotations: READ,
    input: GetArgs,
    envelope: ReadEnvelope,
    route: (args) => ({ method: 'GET', path: args.path, query: args.queryParams }),
  })
  async get(ctx: ToolContext<typeof GetArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await this.upstream.send(ctx, ctx.route)).body };
  }
}
