import Type from 'typebox';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { UpstreamBinding, UpstreamRequest } from '../../core/plugin/upstream-types.js';
import type { ToolAnnotations } from '../../core/plugin/contract.js';
import type { AtlassianTrust } from '../atlassian/author-trust.js';
import { siteApiOf, type Deployment } from '../atlassian/deployment.js';
import { markdownToStorage } from './storage.js';

/*
 * What the typed Confluence tools share, and the two APIs they speak. Cloud: pages and footer comments through
 * REST API v2 (/wiki/api/v2), which names spaces by id; Data Center and Server: the content API (/rest/api),
 * which names them by key. Both: CQL search at <api>/search, bodies in the storage format (storage.ts converts
 * Markdown both ways).
 */

export const PageId = Type.String({ pattern: '^[0-9]{1,20}$', description: 'Page id, e.g. "163841" (conf_search results, page URLs).' });
export const SpaceKey = Type.String({ pattern: '^~?[A-Za-z0-9_]{1,255}$', description: 'Space key, e.g. "ENG".' });
export const MarkdownBody = (what: string): ReturnType<typeof Type.String> =>
  Type.String({ minLength: 1, description: `${what}, in Markdown (mention: [@Name](mention:accountId)).` });

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** A page or comment as either API answers it (the parts the tools read). */
export interface Content {
  id?: string;
  title?: string;
  /** v2 */
  spaceId?: string;
  /** v2: the page's creator (an account id). */
  authorId?: string;
  /** content API */
  space?: { key?: string; name?: string };
  version?: { number?: number; when?: string; createdAt?: string; authorId?: string; by?: { displayName?: string; username?: string } };
  body?: { storage?: { value?: string } };
  _links?: { base?: string; webui?: string };
}

/** A page as the tools give it. */
export interface PageView {
  id: string | null;
  title: string | null;
  space: { key: string | null; name: string | null } | null;
  version: number | null;
  url: string | null;
}

/** What the typed Confluence tools' handlers use of the ConfluencePlugin instance (index.ts): its client, whom the operator trusts. */
export interface ConfluenceDeps {
  readonly upstream: UpstreamClient;
  readonly trust: AtlassianTrust;
}

export interface ConfluenceApi {
  deployment: Deployment;
  searchPath: string;
  readPage(pageId: string, withBody: boolean): UpstreamRequest;
  /** Without `spaceId` on Cloud: the handler adds it, found by the space's key (`spaceByKey`). */
  createPage(page: { spaceKey: string; title: string; parentId?: string; markdown: string }): {
    request: Omit<UpstreamRequest, 'body'>;
    body: () => Record<string, unknown>;
  };
  /** The PUT of a page's new version; title and version may be filled in by the handler after reading the page. */
  updatePage(page: { pageId: string; title?: string; version?: number; markdown: string }): {
    request: Omit<UpstreamRequest, 'body'>;
    body: () => Record<string, unknown>;
  };
  addComment(comment: { pageId: string; markdown: string }): { request: Omit<UpstreamRequest, 'body'>; body: () => Record<string, unknown> };
  /** Cloud: the spaces read to turn a key into an id, or an id into a key and name. */
  spaceByKey(key: string): UpstreamRequest;
  spaceById(id: string): UpstreamRequest;
  view(content: Content, space?: { key?: string; name?: string }): PageView;
}

export function confluenceApi(upstream: UpstreamBinding | undefined): ConfluenceApi {
  const { deployment, webBaseUrl } = siteApiOf(upstream);
  return deployment === 'cloud' ? cloudApi(webBaseUrl) : contentApi(webBaseUrl);
}

const storageValue = (markdown: string, deployment: Deployment): string => markdownToStorage(markdown, deployment);

function webUrl(links: Content['_links'], fallbackBase: string): string | null {
  if (links?.webui === undefined) return null;
  return (links.base ?? fallbackBase).replace(/\/+$/, '') + links.webui;
}

function cloudApi(webBaseUrl: string): ConfluenceApi {
  const pages = '/wiki/api/v2/pages';
  const body = (markdown: string): Record<string, unknown> => ({ representation: 'storage', value: storageValue(markdown, 'cloud') });
  return {
    deployment: 'cloud',
    searchPath: '/wiki/rest/api/search',
    readPage: (id, withBody) => ({ method: 'GET', path: `${pages}/${encodeURIComponent(id)}`, query: withBody ? { 'body-format': 'storage' } : undefined }),
    createPage: (p) => ({
      request: { method: 'POST', path: pages },
      body: () => ({ status: 'current', title: p.title, ...(p.parentId === undefined ? {} : { parentId: p.parentId }), body: body(p.markdown) }),
    }),
    updatePage: (p) => ({
      request: { method: 'PUT', path: `${pages}/${encodeURIComponent(p.pageId)}` },
      body: () => ({
        id: p.pageId,
        status: 'current',
        ...(p.title === undefined ? {} : { title: p.title }),
        ...(p.version === undefined ? {} : { version: { number: p.version + 1 } }),
        body: body(p.markdown),
      }),
    }),
    addComment: (c) => ({ request: { method: 'POST', path: '/wiki/api/v2/footer-comments' }, body: () => ({ pageId: c.pageId, body: body(c.markdown) }) }),
    spaceByKey: (key) => ({ method: 'GET', path: '/wiki/api/v2/spaces', query: { keys: key } }),
    spaceById: (id) => ({ method: 'GET', path: `/wiki/api/v2/spaces/${encodeURIComponent(id)}` }),
    view: (c, space) => ({
      id: c.id ?? null,
      title: c.title ?? null,
      space: space === undefined ? null : { key: space.key ?? null, name: space.name ?? null },
      version: c.version?.number ?? null,
      url: webUrl(c._links, `${webBaseUrl}/wiki`),
    }),
  };
}

function contentApi(webBaseUrl: string): ConfluenceApi {
  const content = '/rest/api/content';
  const body = (markdown: string): Record<string, unknown> => ({ storage: { value: storageValue(markdown, 'datacenter'), representation: 'storage' } });
  const noSpaces = (): never => {
    throw new Error('the content API names spaces by key: no space read is needed');
  };
  return {
    deployment: 'datacenter',
    searchPath: '/rest/api/search',
    readPage: (id, withBody) => ({
      method: 'GET',
      path: `${content}/${encodeURIComponent(id)}`,
      query: { expand: withBody ? 'body.storage,version,space' : 'version' },
    }),
    createPage: (p) => ({
      request: { method: 'POST', path: content },
      body: () => ({
        type: 'page',
        title: p.title,
        space: { key: p.spaceKey },
        ...(p.parentId === undefined ? {} : { ancestors: [{ id: p.parentId }] }),
        body: body(p.markdown),
      }),
    }),
    updatePage: (p) => ({
      request: { method: 'PUT', path: `${content}/${encodeURIComponent(p.pageId)}` },
      body: () => ({
        id: p.pageId,
        type: 'page',
        ...(p.title === undefined ? {} : { title: p.title }),
        ...(p.version === undefined ? {} : { version: { number: p.version + 1 } }),
        body: body(p.markdown),
      }),
    }),
    addComment: (c) => ({
      request: { method: 'POST', path: content },
      body: () => ({ type: 'comment', container: { id: c.pageId, type: 'page' }, body: body(c.markdown) }),
    }),
    spaceByKey: noSpaces,
    spaceById: noSpaces,
    view: (c) => ({
      id: c.id ?? null,
      title: c.title ?? null,
      space: c.space === undefined ? null : { key: c.space.key ?? null, name: c.space.name ?? null },
      version: c.version?.number ?? null,
      url: webUrl(c._links, webBaseUrl),
    }),
  };
}
