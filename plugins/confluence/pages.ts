import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamBinding, UpstreamRequest } from '../../core/plugin/upstream-types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/contract.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { FROM_UPSTREAM } from '../../core/plugin/tool-spec.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { withBody } from '../atlassian/route-body.js';
import { confluenceApi, CREATE, MarkdownBody, PageId, READ, SpaceKey, type ConfluenceApi, type Content, type ConfluenceDeps } from './confluence-api.js';
import { storageToMarkdown } from './storage.js';
import { jsonObject } from '../atlassian/json-object.js';
import { ConfluenceLabeller, labellingReads, spaceTarget } from './provenance.js';

/* conf_get_page, conf_create_page and conf_add_comment (conf_update_page, with its version rules, is apart). */

export const GetPageArgs = Type.Object(
  {
    pageId: PageId,
    format: Type.Optional(
      Type.Union([Type.Literal('markdown'), Type.Literal('storage')], { description: 'Body as "markdown" (default) or Confluence "storage" XHTML.' }),
    ),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GET_PAGE = defineTool({
  name: 'conf_get_page',
  title: 'Read a Confluence page',
  description: 'One page: {id, title, space, version, url, body}, the body in Markdown unless format is "storage".',
  annotations: READ,
  input: GetPageArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence.pages',
  provenance: { labels: true },
  route: (args: Static<typeof GetPageArgs>, upstream?: UpstreamBinding) => confluenceApi(upstream).readPage(args.pageId, true),
  // Cloud names the page's space by id only: the space is read for its key and name. Then the labelling's
  // reads: the space's permissions, the last editor's groups.
  further: (_args: Static<typeof GetPageArgs>, upstream?: UpstreamBinding) => [...spaceReads(upstream, '/wiki/api/v2/spaces/*'), ...labellingReads(upstream)],
  handler: async (ctx, deps: ConfluenceDeps) => {
    const confluence = deps.upstream;
    const api = confluenceApi(confluence);
    const page = jsonObject<Content>((await confluence.send(ctx, ctx.route, { expect: 'json' })).body);
    const storage = page.body?.storage?.value ?? '';
    const format = ctx.args.format ?? 'markdown';
    const updated = page.version?.when ?? page.version?.createdAt ?? null;
    const updatedBy = page.version?.by?.displayName ?? page.version?.authorId ?? null;
    const view = api.view(page, await spaceOf(ctx, confluence, api, page));
    // The current version's author (v2: an account id; the content API: a user); a page without one, its creator.
    const editorId = page.version?.authorId ?? page.authorId;
    const editor = page.version?.by ?? (editorId === undefined ? undefined : { accountId: editorId });
    const labeller = new ConfluenceLabeller(deps, ctx);
    const label = await labeller.page(view, view.space?.key ?? undefined, editor);
    return {
      value: { ...view, updated, updatedBy, format, body: format === 'storage' ? storage : storageToMarkdown(storage) },
      provenance: labeller.result([label]),
    };
  },
});

/** Cloud's reads of a space (by id or by key), which Data Center's content API never needs. */
function spaceReads(upstream: UpstreamBinding | undefined, path: string): Array<{ method: 'GET'; path: string }> {
  return confluenceApi(upstream).deployment === 'cloud' ? [{ method: 'GET', path }] : [];
}

/** The space of a Cloud page (v2 names it by id only): a second read, decided by policy as one. */
async function spaceOf(ctx: ToolContext, confluence: UpstreamClient, api: ConfluenceApi, page: Content): Promise<Space | undefined> {
  if (api.deployment !== 'cloud' || page.spaceId === undefined) return undefined;
  return jsonObject<Space>((await confluence.send(ctx, api.spaceById(page.spaceId), { expect: 'json' })).body);
}

interface Space {
  id?: string;
  key?: string;
  name?: string;
}

export const CreatePageArgs = Type.Object(
  {
    spaceKey: SpaceKey,
    title: Type.String({ minLength: 1, maxLength: 255, description: 'Page title (unique in the space).' }),
    body: MarkdownBody('Page content'),
    parentId: Type.Optional({ ...PageId, description: 'Parent page id; omitted: top level of the space.' }),
  },
  { additionalProperties: false },
);

/**
 * The route is the page's POST. Cloud's API takes the space by id: the handler reads the space by its key
 * first and the same POST carries the id (the request gate has policy decide it as it decided the route).
 */
export const CREATE_PAGE = defineTool({
  name: 'conf_create_page',
  title: 'Create a Confluence page',
  description: 'Create a page in a space, optionally under a parent page. Answers {id, title, space, version, url}.',
  annotations: CREATE,
  provenance: { labels: false, target: (args: Static<typeof CreatePageArgs>) => spaceTarget(args.spaceKey) },
  input: CreatePageArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence.pages',
  route: (args: Static<typeof CreatePageArgs>, upstream?: UpstreamBinding) => {
    const { request, body } = newPage(args, upstream);
    return withBody(request, body);
  },
  // Cloud takes the space by id: it is found by its key first, and the POST carries the id found.
  further: (args: Static<typeof CreatePageArgs>, upstream?: UpstreamBinding) => {
    const { request, body } = newPage(args, upstream);
    const withSpace = withBody(request, () => ({ spaceId: FROM_UPSTREAM, ...body() }));
    return [...spaceReads(upstream, '/wiki/api/v2/spaces'), ...(confluenceApi(upstream).deployment === 'cloud' ? [withSpace as FurtherRoute] : [])];
  },
  handler: async (ctx, { upstream: confluence }: ConfluenceDeps) => {
    const api = confluenceApi(confluence);
    let post: UpstreamRequest = ctx.route;
    let space: Space | undefined;
    if (api.deployment === 'cloud') {
      const found = jsonObject<{ results: Space[] }>((await confluence.send(ctx, api.spaceByKey(ctx.args.spaceKey), { expect: 'json' })).body);
      space = (Array.isArray(found.results) ? found.results : []).find((s) => s.key?.toLowerCase() === ctx.args.spaceKey.toLowerCase());
      if (space?.id === undefined) {
        throw new ToolError(
          'upstream_http_error',
          `No space with the key ${JSON.stringify(ctx.args.spaceKey)} is visible to this account: check the key (conf_search with "type = space"). Nothing was created.`,
        );
      }
      post = { ...ctx.route, body: { spaceId: space.id, ...(ctx.route.body as object) } };
      ctx.progress(1, 2, `found space ${ctx.args.spaceKey}; creating the page`);
    }
    const page = jsonObject<Content>((await confluence.send(ctx, post, { expect: 'json' })).body);
    return { value: { ...api.view(page, space) } };
  },
});

const newPage = (args: Static<typeof CreatePageArgs>, upstream: UpstreamBinding | undefined): ReturnType<ConfluenceApi['createPage']> =>
  confluenceApi(upstream).createPage({ spaceKey: args.spaceKey, title: args.title, parentId: args.parentId, markdown: args.body });

export const AddPageCommentArgs = Type.Object({ pageId: PageId, body: MarkdownBody('Comment') }, { additionalProperties: false });

export const ADD_PAGE_COMMENT = defineTool({
  name: 'conf_add_comment',
  title: 'Comment on a Confluence page',
  description: 'Add a comment to a page. Answers {id, pageId, url}.',
  annotations: CREATE,
  input: AddPageCommentArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence.pages',
  route: (args: Static<typeof AddPageCommentArgs>, upstream?: UpstreamBinding) => {
    const { request, body } = confluenceApi(upstream).addComment({ pageId: args.pageId, markdown: args.body });
    return withBody(request, body);
  },
  handler: async (ctx, { upstream: confluence }: ConfluenceDeps) => {
    const comment = jsonObject<Content>((await confluence.send(ctx, ctx.route, { expect: 'json' })).body);
    return { value: { id: comment.id ?? null, pageId: ctx.args.pageId, url: confluenceApi(confluence).view(comment).url } };
  },
});
