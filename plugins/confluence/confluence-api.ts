import Type from 'typebox';
import type { UpstreamBinding } from '../../core/http/types.js';
import type { ToolAnnotations } from '../../core/plugin/contract.js';
import { siteApiOf, type Deployment } from '../atlassian/deployment.js';
import { markdownToStorage } from './storage.js';

/*
 * What the typed Confluence tools share. They speak the content REST API that Cloud (under /wiki) and Data
 * Center (and Server) both serve with the same shapes: pages and comments by space key and version number, and
 * CQL search. Bodies are the storage format (storage.ts converts Markdown both ways).
 */

export const PageId = Type.String({ pattern: '^[0-9]{1,20}$', description: 'Page id, e.g. "163841" (conf_search results, page URLs).' });
export const SpaceKey = Type.String({ pattern: '^~?[A-Za-z0-9_]{1,255}$', description: 'Space key, e.g. "ENG".' });
export const MarkdownBody = (what: string): ReturnType<typeof Type.String> =>
  Type.String({ minLength: 1, description: `${what}, in Markdown (mention: [@Name](mention:accountId)).` });

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

export interface ConfluenceApi {
  deployment: Deployment;
  /** `/wiki/rest/api` on Cloud, `/rest/api` on Data Center. */
  base: string;
  contentPath(id: string): string;
  /** Markdown as a storage-format body of the content API. */
  storageBody(markdown: string): { storage: { value: string; representation: 'storage' } };
  /** Where a person opens content, from its `_links` (`base` + `webui`). */
  webUrl(links: ContentLinks | undefined): string | null;
}

export interface ContentLinks {
  base?: string;
  webui?: string;
}

export function confluenceApi(upstream: UpstreamBinding | undefined): ConfluenceApi {
  const { deployment, webBaseUrl } = siteApiOf(upstream);
  const cloud = deployment === 'cloud';
  const base = cloud ? '/wiki/rest/api' : '/rest/api';
  return {
    deployment,
    base,
    contentPath: (id) => `${base}/content/${encodeURIComponent(id)}`,
    storageBody: (markdown) => ({ storage: { value: markdownToStorage(markdown, deployment), representation: 'storage' } }),
    webUrl: (links) => {
      if (links?.webui === undefined) return null;
      // Answers name their own base; without one, the site's (Cloud serves pages under /wiki).
      return (links.base ?? (cloud ? `${webBaseUrl}/wiki` : webBaseUrl)).replace(/\/+$/, '') + links.webui;
    },
  };
}

/** What the content API answers for a page or comment (the parts the tools read). */
export interface Content {
  id?: string;
  type?: string;
  title?: string;
  space?: { key?: string; name?: string };
  version?: { number?: number; when?: string; by?: { displayName?: string } };
  body?: { storage?: { value?: string } };
  _links?: ContentLinks;
}
