import Type, { type Static } from 'typebox';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CursorEnvelope } from '../../core/schema/envelopes.js';
import { confluenceApi, READ, type ConfluenceDeps } from './confluence-api.js';
import { siteApiOf } from '../atlassian/deployment.js';
import { jsonObject } from '../atlassian/json-object.js';
import { ConfluenceLabeller, labellingReads } from './provenance.js';

export const ConfSearchArgs = Type.Object(
  {
    cql: Type.String({ minLength: 1, description: 'CQL, e.g. "space = ENG AND type = page AND text ~ \\"runbook\\"".' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Results per page, 1-100 (default 25).' })),
    cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,4096}$', description: 'nextCursor of the previous page.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

type Args = Static<typeof ConfSearchArgs>;

/**
 * The query parameters of a search's next link that carry its position: Cloud's `cursor` (with `next`), Data
 * Center's `start`. The caller's cursor is those, encoded; nothing else can ride on it: a cursor that does not
 * decode to a position is sent as Confluence's own `cursor` value, for Confluence to refuse.
 */
const POSITION = ['cursor', 'next', 'start'];

export const CONF_SEARCH = defineTool({
  name: 'conf_search',
  title: 'Search Confluence with CQL',
  description:
    "Pages, blog posts and comments matching a CQL query. Result {data, nextCursor}: data is Confluence's page ({results: [{content: {id, title}, excerpt, url}]}); pass nextCursor as cursor for more. Read a page with conf_get_page.",
  annotations: READ,
  input: ConfSearchArgs,
  envelope: CursorEnvelope,
  toolset: 'confluence.pages',
  provenance: { labels: true },
  // Labelling's reads: the permissions of each space the results name (five at most).
  further: (_args: Args, upstream?: UpstreamBinding) => labellingReads(upstream),
  route: (args: Args, upstream?: UpstreamBinding) => ({
    method: 'GET',
    path: confluenceApi(upstream).searchPath,
    query: { cql: args.cql, limit: args.limit ?? 25, ...(args.cursor === undefined ? {} : positionOf(args.cursor)) },
  }),
  handler: async (ctx, deps: ConfluenceDeps) => {
    const page = (await deps.upstream.send(ctx, ctx.route, { expect: 'json' })).body;
    const links = jsonObject<SearchPage>(page)._links;
    const labeller = new ConfluenceLabeller(deps, ctx);
    const labels = await labeller.searchResults(page, (links?.base ?? siteApiOf(deps.upstream).webBaseUrl).replace(/\/+$/, ''));
    return { value: page, meta: { nextCursor: nextCursor(links?.next) }, provenance: labeller.result(labels) };
  },
});

function positionOf(cursor: string): Record<string, string> {
  const params = new URLSearchParams(Buffer.from(cursor, 'base64url').toString('utf8'));
  const names = [...params.keys()];
  if (names.length === 0 || names.some((name) => !POSITION.includes(name))) return { cursor };
  return Object.fromEntries(params);
}

interface SearchPage {
  _links?: { next?: string; base?: string };
}

/** The position in the next link, as an opaque cursor; null when Confluence gives no next link. */
function nextCursor(next: string | undefined): string | null {
  if (typeof next !== 'string' || next === '') return null;
  const query = new URL(next, 'http://confluence.invalid').searchParams;
  const position = new URLSearchParams([...query].filter(([name]) => POSITION.includes(name)));
  return position.size === 0 ? null : Buffer.from(position.toString(), 'utf8').toString('base64url');
}
