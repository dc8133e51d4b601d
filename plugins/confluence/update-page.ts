import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamBinding, UpstreamRequest } from '../../core/plugin/upstream-types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/contract.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { FROM_UPSTREAM } from '../../core/plugin/tool-spec.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { withBody } from '../atlassian/route-body.js';
import { confluenceApi, MarkdownBody, PageId, type ConfluenceApi, type Content, type ConfluenceDeps } from './confluence-api.js';
import { jsonObject } from '../atlassian/json-object.js';

export const UpdatePageArgs = Type.Object(
  {
    pageId: PageId,
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'New title; omitted: kept.' })),
    body: MarkdownBody('New page content (replaces the old)'),
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'The version your edit is based on (conf_get_page); saved as the next one. Omitted: the current version.' }),
    ),
  },
  { additionalProperties: false },
);

type Args = Static<typeof UpdatePageArgs>;

/**
 * The route is the page's PUT, saving `version + 1`. Without a version or a title, the page is read first for
 * them, and the same PUT carries what was read (the request gate has policy decide it as it decided the route).
 * Confluence refuses a version that is not the next one with 409: someone saved first.
 */
export const UPDATE_PAGE = defineTool({
  name: 'conf_update_page',
  title: 'Update a Confluence page',
  description:
    'Replace the content (and optionally the title) of a page. Pass the version you read to be told, instead of overwriting, when someone saved since. Answers {id, title, version, url}.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: UpdatePageArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence.pages',
  route: (args: Args, upstream?: UpstreamBinding) => {
    const { request, body } = pageUpdate(args, upstream);
    return withBody(request, body);
  },
  // The page's current version and title, read when the call does not give them (or Confluence answers 409);
  // the PUT then carries what was read, all else as the route has it.
  further: (args: Args, upstream?: UpstreamBinding) => {
    const read: FurtherRoute = { method: 'GET', path: confluenceApi(upstream).readPage(args.pageId, false).path };
    if (args.version !== undefined && args.title !== undefined) return [read];
    const { request, body } = pageUpdate(args, upstream);
    const version = args.version === undefined ? FROM_UPSTREAM : args.version + 1;
    return [read, withBody(request, () => ({ ...body(), title: args.title ?? FROM_UPSTREAM, version: { number: version } })) as FurtherRoute];
  },
  handler: async (ctx, { upstream: confluence }: ConfluenceDeps) => {
    const api = confluenceApi(confluence);
    const { pageId, title, version } = ctx.args;
    const current = version === undefined || title === undefined ? await currentPage(ctx, confluence) : undefined;
    if (current !== undefined) ctx.progress(1, 2, `read the current version of page ${pageId}; saving it`);
    const base = version ?? current?.version?.number ?? 0;
    const put: UpstreamRequest =
      current === undefined
        ? ctx.route
        : { ...ctx.route, body: { ...(ctx.route.body as object), title: title ?? current.title, version: { number: base + 1 } } };
    try {
      const saved = jsonObject<Content>((await confluence.send(ctx, put, { expect: 'json' })).body);
      const { id, title: savedTitle, version: savedVersion, url } = api.view(saved);
      return { value: { id, title: savedTitle, version: savedVersion, url } };
    } catch (error) {
      if ((error as ToolError).status !== 409) throw error;
      const now = (await currentPage(ctx, confluence)).version?.number;
      throw new ToolError(
        'upstream_http_error',
        `Page ${pageId} was not saved: it is at version ${now ?? '(unknown)'} now, and this edit was based on version ${base} (it would have been version ${base + 1}). ` +
          `Someone saved it in between: read it again with conf_get_page, apply your change to that version, and retry with version ${now ?? 'set to it'}.`,
        { status: 409, upstreamBody: (error as ToolError).upstreamBody, cause: error },
      );
    }
  },
});

const pageUpdate = (args: Args, upstream: UpstreamBinding | undefined): ReturnType<ConfluenceApi['updatePage']> =>
  confluenceApi(upstream).updatePage({ pageId: args.pageId, title: args.title, version: args.version, markdown: args.body });

/** The page's current version and title (Cloud gives both without the body; the content API with `expand=version`). */
function currentPage(ctx: ToolContext, confluence: UpstreamClient): Promise<Content> {
  const request = confluenceApi(confluence).readPage(String(ctx.args.pageId), false);
  return confluence.send(ctx, request, { expect: 'json' }).then((r) => jsonObject<Content>(r.body));
}
