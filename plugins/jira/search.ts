import Type, { type Static } from 'typebox';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CursorEnvelope } from '../../core/schema/envelopes.js';
import { jiraApi, READ, type JiraDeps } from './jira-api.js';
import { jsonObject } from '../atlassian/json-object.js';
import { ISSUE_TEXT } from './get-issue.js';
import { JiraLabeller, labellingReads } from './provenance.js';

/** Fields a search returns when none are named: Cloud's search returns only ids without them. */
export const DEFAULT_SEARCH_FIELDS = ['summary', 'status', 'assignee', 'priority', 'issuetype', 'updated'];

export const SearchArgs = Type.Object(
  {
    jql: Type.String({ minLength: 1, description: 'JQL, e.g. "project = PLAT AND status = \\"In Progress\\" ORDER BY updated DESC".' }),
    fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: `Fields to return (default ${DEFAULT_SEARCH_FIELDS.join(', ')}).` }),
    ),
    maxResults: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Issues per page, 1-100 (default 50).' })),
    cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/=_.-]{1,2048}$', description: 'nextCursor of the previous page.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

type Args = Static<typeof SearchArgs>;

/**
 * Cloud pages with the token its /search/jql gives (`nextPageToken`), Data Center with the offset of API 2's
 * /search (`startAt`); the caller sees both as an opaque cursor, the Data Center one being the next offset.
 */
export const SEARCH = defineTool({
  name: 'jira_search',
  title: 'Search Jira issues with JQL',
  description:
    "Issues matching a JQL query. Result {data, nextCursor}: data is Jira's page ({issues: [{key, fields}]}); pass nextCursor as cursor for more. Read one issue with jira_get_issue.",
  annotations: READ,
  input: SearchArgs,
  envelope: CursorEnvelope,
  toolset: 'jira.issues',
  provenance: { labels: true },
  // Labelling's reads: each project's permission scheme (five at most), the reporters' groups.
  further: (_args: Args, upstream?: UpstreamBinding) => labellingReads(upstream),
  route: (args: Args, upstream?: UpstreamBinding) => {
    const api = jiraApi(upstream);
    const common = { jql: args.jql, fields: (args.fields ?? DEFAULT_SEARCH_FIELDS).join(','), maxResults: args.maxResults ?? 50 };
    if (api.deployment === 'cloud') return { method: 'GET', path: `${api.base}/search/jql`, query: { ...common, nextPageToken: args.cursor } };
    // A Data Center cursor is the next offset; any other is sent as it is, for Jira to refuse.
    return { method: 'GET', path: `${api.base}/search`, query: { ...common, startAt: args.cursor } };
  },
  handler: async (ctx, deps: JiraDeps) => {
    const page = jsonObject<SearchPage>((await deps.upstream.send(ctx, ctx.route, { expect: 'json' })).body);
    const api = jiraApi(deps.upstream);
    const labeller = new JiraLabeller(deps, ctx);
    const labels = [];
    for (const [i, issue] of (Array.isArray(page.issues) ? page.issues : []).entries()) {
      const o = jsonObject<{ key?: unknown; fields?: unknown }>(issue);
      const key = typeof o.key === 'string' ? o.key : '?';
      labels.push(await labeller.issue(key, jsonObject<Record<string, unknown>>(o.fields), ['issues', i, 'fields'], api.issueUrl(key), ISSUE_TEXT));
    }
    return { value: page, meta: { nextCursor: nextCursor(page) }, provenance: labeller.result(labels) };
  },
});

interface SearchPage {
  issues?: unknown[];
  nextPageToken?: string;
  isLast?: boolean;
  startAt?: number;
  maxResults?: number;
  total?: number;
}

function nextCursor(page: Partial<SearchPage>): string | null {
  if (typeof page.nextPageToken === 'string' && page.nextPageToken !== '' && page.isLast !== true) return page.nextPageToken;
  if (typeof page.startAt === 'number' && typeof page.total === 'number') {
    // The page's size as Jira gave it: an allowlist may have left issues out of the page (docs/policy.md#allowlists).
    const size = typeof page.maxResults === 'number' && page.maxResults > 0 ? page.maxResults : (page.issues?.length ?? 0);
    const next = page.startAt + size;
    return size > 0 && next < page.total ? String(next) : null;
  }
  return null;
}
