import { servedPath } from '../../core/http/path-guards.js';
import type { AnsweredRequest } from './result-items.js';
import { bodyOf, type ListedVendor } from '../resource-names/named-resources.js';
import { at, str } from './json-member.js';

/**
 * A read that says which resource a request by id belongs to, before the request is sent: a CircleCI pipeline's
 * or workflow's project (`GET /pipeline/{id}` answers `project_slug`), a Confluence page's space. The request's
 * own path names no resource, and its answer (a pipeline's config, a write's result) names none either, or comes
 * too late (a write is done once it is sent).
 */
export interface OwnerLookup {
  /** What the request addresses, for the sentence (`pipeline 5034460f-...`). */
  readonly what: string;
  /** Cache key within the vendor and credential (`pipeline:5034460f-...`). */
  readonly key: string;
  /** The path to read, as sent (API prefix included). */
  readonly path: string;
  /** The resource the read's answer names, a further read (a v2 page that names its space by id), or undefined. */
  readonly nameOf: (body: unknown) => string | OwnerLookup | undefined;
}

/** A request with its body, as the lookups read it. */
export interface AddressedRequest extends AnsweredRequest {
  readonly body?: string;
}

/** The read that decides `request` before it is sent, or undefined when its path (or its answer) decides it. */
export function ownerLookup(vendor: ListedVendor, request: AddressedRequest): OwnerLookup | undefined {
  const parts = servedPath(request.path)
    .split('/')
    .filter((s) => s !== '');
  const write = request.method.toUpperCase() !== 'GET';
  if (vendor === 'circleci') return circleciLookup(parts, write);
  if (vendor === 'confluence' && write) return confluenceLookup(parts, request);
  return undefined;
}

const joined = (parts: readonly string[]): string => `/${parts.map(encodeURIComponent).join('/')}`;

// CircleCI -------------------------------------------------------------------------------------------------

const VCS: Readonly<Record<string, string>> = { gh: 'gh', github: 'gh', bb: 'bb', bitbucket: 'bb', circleci: 'circleci' };

/** A project slug with its long VCS spelling shortened (`github/acme/app` is `gh/acme/app`); a schedule's is `project-slug`. */
function projectSlug(body: unknown): string | undefined {
  const s = str(at(body, 'project_slug')) ?? str(at(body, 'project-slug'));
  const [vcs, ...rest] = s?.split('/') ?? [];
  return vcs !== undefined && rest.length === 2 ? `${VCS[vcs.toLowerCase()] ?? vcs}/${rest.join('/')}` : undefined;
}

/**
 * A pipeline's config and values (`/pipeline/{id}/config|values`: bodies that name no project), and any write
 * to a pipeline or workflow by id (`/workflow/{id}/rerun`, `/cancel`, `/approve/{request}`): decided by the
 * pipeline's or workflow's `project_slug`; a change to a schedule by id (`PATCH`/`DELETE /schedule/{id}`), by
 * its `project-slug`. A pipeline, workflow or schedule read whole names its project itself.
 */
function circleciLookup(parts: string[], write: boolean): OwnerLookup | undefined {
  const v2 = parts[0] === 'api' && parts[1] === 'v2';
  if (parts[0] === 'api' && !v2) return undefined;
  const prefix = v2 ? parts.slice(0, 2) : [];
  const [first, id, third] = v2 ? parts.slice(2) : parts;
  if (first === 'schedule' && id !== undefined && write)
    return { what: `schedule ${id}`, key: `schedule:${id}`, path: joined([...prefix, first, id]), nameOf: projectSlug };
  if ((first !== 'pipeline' && first !== 'workflow') || id === undefined) return undefined;
  const decided = first === 'pipeline' ? write || third === 'config' || third === 'values' : write;
  if (!decided) return undefined;
  return { what: `${first} ${id}`, key: `${first}:${id}`, path: joined([...prefix, first, id]), nameOf: projectSlug };
}

// Confluence -----------------------------------------------------------------------------------------------

/** The space key in a web or API address: `/spaces/ENG/pages/1`, `/rest/api/space/ENG`, `/display/ENG/...`. */
function spaceInPath(path: unknown): string | undefined {
  const m = /\/(?:rest\/api\/space|spaces|display)\/([^/?#]+)/.exec(str(path) ?? '');
  return m === null ? undefined : decodeURIComponent(m[1]!);
}

/**
 * A write to a page or blog post by id (`PUT /wiki/api/v2/pages/{id}`, `DELETE`, v1's `/rest/api/content/{id}`
 * and what lies under it: labels, attachments), and a comment on one (v2 `POST /footer-comments` with its
 * `pageId` or `blogPostId`; v1 `POST /rest/api/content` with `container.id`): decided by the space the page is
 * in, read first.
 */
function confluenceLookup(parts: string[], request: AddressedRequest): OwnerLookup | undefined {
  const v2 = parts.findIndex((p, n) => p === 'wiki' && parts[n + 1] === 'api' && parts[n + 2] === 'v2');
  if (v2 !== -1) {
    const base = parts.slice(0, v2 + 3);
    const [first, id] = parts.slice(v2 + 3);
    if ((first === 'pages' || first === 'blogposts') && id !== undefined && /^\d+$/.test(id)) return v2Page(base, first, id);
    if ((first === 'footer-comments' || first === 'inline-comments') && id === undefined) {
      const body = bodyOf(request.body);
      const page = str(String(body?.pageId ?? '')) ?? str(String(body?.blogPostId ?? ''));
      if (page !== undefined && /^\d+$/.test(page)) return v2Page(base, body?.pageId !== undefined ? 'pages' : 'blogposts', page);
    }
    return undefined;
  }
  const v1 = parts.findIndex((p, n) => p === 'rest' && parts[n + 1] === 'api' && parts[n + 2] === 'content');
  if (v1 === -1) return undefined;
  // A comment created on a page (Data Center's `POST /rest/api/content` with `container.id`): the page's space.
  const container = parts[v1 + 3] === undefined ? (bodyOf(request.body)?.container as { id?: unknown } | undefined)?.id : undefined;
  const id = parts[v1 + 3] ?? (typeof container === 'string' || typeof container === 'number' ? String(container) : undefined);
  if (id === undefined || !/^\d+$/.test(id)) return undefined;
  return {
    what: `content ${id}`,
    key: `content:${id}`,
    path: `${joined([...parts.slice(0, v1 + 3), id])}?expand=space`,
    nameOf: (body) => str(at(body, 'space', 'key')) ?? spaceInPath(at(body, '_expandable', 'space')) ?? spaceInPath(at(body, '_links', 'webui')),
  };
}

/** A v2 page or blog post: its space by its web address, else by its `spaceId`, read as a space. */
function v2Page(base: readonly string[], kind: 'pages' | 'blogposts', id: string): OwnerLookup {
  return {
    what: `${kind === 'pages' ? 'page' : 'blog post'} ${id}`,
    key: `${kind}:${id}`,
    path: joined([...base, kind, id]),
    nameOf: (body) => {
      const space = spaceInPath(at(body, '_links', 'webui'));
      if (space !== undefined) return space;
      const spaceId = at(body, 'spaceId');
      if (typeof spaceId !== 'string' && typeof spaceId !== 'number') return undefined;
      return { what: `space ${spaceId}`, key: `space:${spaceId}`, path: joined([...base, 'spaces', String(spaceId)]), nameOf: (s) => str(at(s, 'key')) };
    },
  };
}
