import Type, { type Static } from 'typebox';
import type { UpstreamBinding } from '../../core/http/types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import type { RoutedToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { withBody } from '../atlassian/route-body.js';
import { confluenceApi, CREATE, MarkdownBody, PageId, READ, SpaceKey, type ConfluenceApi, type Content } from './confluence-api.js';
import { storageToMarkdown } from './storage.js';

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

export const GET_PAGE: RoutedToolSpec<typeof GetPageArgs, typeof ReadEnvelope> = {
  name: 'conf_get_page',
  title: 'Read a Confluence page',
  description: 'One page: {id, title, space, version, url, body}, the body in Markdown unless format is "storage".',
  annotations: READ,
  input: GetPageArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence',
  route: (args: Static<typeof GetPageArgs>, upstream?: UpstreamBinding) => ({
    method: 'GET',
    path: confluenceApi(upstream).contentPath(args.pageId),
    query: { expand: 'body.storage,version,space' },
  }),
};

/** What the tools answer about a page: never its whole API object. */
export function pageSummary(page: Content, api: ConfluenceApi): Record<string, unknown> {
  return {
    id: page.id ?? null,
    title: page.title ?? null,
    space: page.space === undefined ? null : { key: page.space.key ?? null, name: page.space.name ?? null },
    version: page.version?.number ?? null,
    url: api.webUrl(page._links),
  };
}

export async function getPage(ctx: ToolContext<typeof GetPageArgs>, confluence: UpstreamClient): Promise<ToolOutput<typeof ReadEnvelope>> {
  const page = (await confluence.send(ctx, ctx.route, { expect: 'json' })).body as Content;
  const storage = page.body?.storage?.value ?? '';
  const format = ctx.args.format ?? 'markdown';
  const lastEdit = page.version === undefined ? {} : { updated: page.version.when ?? null, updatedBy: page.version.by?.displayName ?? null };
  return { value: { ...pageSummary(page, confluenceApi(confluence)), ...lastEdit, format, body: format === 'storage' ? storage : storageToMarkdown(storage) } };
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

export const CREATE_PAGE: RoutedToolSpec<typeof CreatePageArgs, typeof ReadEnvelope> = {
  name: 'conf_create_page',
  title: 'Create a Confluence page',
  description: 'Create a page in a space, optionally under a parent page. Answers {id, title, space, version, url}.',
  annotations: CREATE,
  input: CreatePageArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence',
  route: (args: Static<typeof CreatePageArgs>, upstream?: UpstreamBinding) => {
    const api = confluenceApi(upstream);
    return withBody({ method: 'POST', path: `${api.base}/content` }, () => ({
      type: 'page',
      title: args.title,
      space: { key: args.spaceKey },
      ...(args.parentId === undefined ? {} : { ancestors: [{ id: args.parentId }] }),
      body: api.storageBody(args.body),
    }));
  },
};

export async function createPage(ctx: ToolContext<typeof CreatePageArgs>, confluence: UpstreamClient): Promise<ToolOutput<typeof ReadEnvelope>> {
  const page = (await confluence.send(ctx, ctx.route, { expect: 'json' })).body as Content;
  return { value: pageSummary(page, confluenceApi(confluence)) };
}

export const AddPageCommentArgs = Type.Object({ pageId: PageId, body: MarkdownBody('Comment') }, { additionalProperties: false });

export const ADD_PAGE_COMMENT: RoutedToolSpec<typeof AddPageCommentArgs, typeof ReadEnvelope> = {
  name: 'conf_add_comment',
  title: 'Comment on a Confluence page',
  description: 'Add a comment to a page. Answers {id, pageId, url}.',
  annotations: CREATE,
  input: AddPageCommentArgs,
  envelope: ReadEnvelope,
  toolset: 'confluence',
  route: (args: Static<typeof AddPageCommentArgs>, upstream?: UpstreamBinding) => {
    const api = confluenceApi(upstream);
    return withBody({ method: 'POST', path: `${api.base}/content` }, () => ({
      type: 'comment',
      container: { id: args.pageId, type: 'page' },
      body: api.storageBody(args.body),
    }));
  },
};

export async function addPageComment(ctx: ToolContext<typeof AddPageCommentArgs>, confluence: UpstreamClient): Promise<ToolOutput<typeof ReadEnvelope>> {
  const comment = (await confluence.send(ctx, ctx.route, { expect: 'json' })).body as Content;
  return { value: { id: comment.id ?? null, pageId: ctx.args.pageId, url: confluenceApi(confluence).webUrl(comment._links) } };
}
