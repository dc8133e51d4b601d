import { resourceKey, type Provenance, type ProvenanceLabel } from '../../core/plugin/provenance.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { authorOf, AuthorTrustLookup, groupNames, type AtlassianTrust } from '../atlassian/author-trust.js';
import { PlaceLookup, type PlaceVisibility } from '../atlassian/place-visibility.js';
import { confluenceApi, type ConfluenceDeps } from './confluence-api.js';

// Whose words a Confluence answer carries (docs/untrusted-content.md#how-trust-is-derived-per-vendor): a page is
// its last editor's (the author of its current version), trusted by the operator's groups and domains
// (atlassian/author-trust.ts); a search result names no author and is untrusted. A space is public when its
// permissions grant reading to anonymous users (`anonymousAccess`); anything else is private.

/** The v1 REST API (space permissions, users) under Cloud's /wiki, or at the root on Data Center. */
const restBase = (upstream: UpstreamBinding | undefined): string => (confluenceApi(upstream).deployment === 'cloud' ? '/wiki/rest/api' : '/rest/api');

/** The write target of a tool writing to a space, as flow rules name it. */
export const spaceTarget = (spaceKey: string): string => resourceKey('confluence', spaceKey);

/** The requests labelling may send beyond the tool's route: a space's permissions, an author's groups and address. */
export function labellingReads(upstream: UpstreamBinding | undefined): FurtherRoute[] {
  const base = restBase(upstream);
  return [
    { method: 'GET', path: `${base}/space/*` },
    { method: 'GET', path: `${base}/user/memberof` },
    { method: 'GET', path: `${base}/user` },
  ];
}

/** True when a space's permissions (`?expand=permissions`) let anonymous users read it. */
function anonymousRead(body: unknown): boolean {
  const permissions = (body as { permissions?: unknown } | null)?.permissions;
  if (!Array.isArray(permissions)) return false;
  return permissions.some((p) => {
    const grant = p as { anonymousAccess?: unknown; operation?: { operation?: unknown; targetType?: unknown } } | null;
    return grant?.anonymousAccess === true && grant.operation?.operation === 'read' && (grant.operation.targetType ?? 'space') === 'space';
  });
}

/** The key of the space a search result lives in: its content's space, or its container's `/spaces/KEY` link. */
function spaceOfResult(result: unknown): string | undefined {
  const r = (result ?? {}) as { content?: { space?: { key?: unknown } }; resultGlobalContainer?: { displayUrl?: unknown }; space?: { key?: unknown } };
  const stated = r.content?.space?.key ?? r.space?.key;
  if (typeof stated === 'string' && stated !== '') return stated;
  const m = /\/(?:spaces|display)\/([^/?#]+)/.exec(String(r.resultGlobalContainer?.displayUrl ?? ''));
  return m === null ? undefined : decodeURIComponent(m[1]!);
}

/** One call's labelling: its author and space lookups. */
export class ConfluenceLabeller {
  private readonly authors: AuthorTrustLookup;
  private readonly spaces: PlaceLookup;
  private readonly warnings = new Set<string>();

  constructor({ upstream: confluence, trust }: ConfluenceDeps & { trust: AtlassianTrust }, ctx: AnyToolContext) {
    const base = restBase(confluence);
    const cloud = confluenceApi(confluence).deployment === 'cloud';
    const who = (id: string): Record<string, string> => (cloud ? { accountId: id } : { username: id });
    this.authors = new AuthorTrustLookup(
      trust,
      `confluence|${confluence.identity.host}`,
      async (author, wantEmail) => {
        const ask = (path: string): Promise<unknown> =>
          confluence.send(ctx, { method: 'GET', path, query: who(author.id!) }, { expect: 'json' }).then((r) => r.body);
        const groups = trust.groups.size === 0 ? [] : groupNames(await ask(`${base}/user/memberof`));
        if (!wantEmail || groups.some((g) => trust.groups.has(g.toLowerCase()))) return { groups };
        // A page names its author by id only: the address, for MCP_TRUSTED_DOMAINS, is the user's when shown.
        // An address that cannot be read is not shown: the groups still decide.
        const person = await ask(`${base}/user`).catch((error: unknown) => {
          if (ctx.signal.aborted) throw error;
          return undefined;
        });
        return { groups, email: authorOf(person).email };
      },
      () => ctx.signal.aborted,
    );
    this.spaces = new PlaceLookup(
      confluence,
      ctx,
      'space',
      (key) => ({ method: 'GET', path: `${base}/space/${encodeURIComponent(key)}`, query: { expand: 'permissions' } }),
      anonymousRead,
    );
  }

  private async place(space: string | undefined): Promise<PlaceVisibility> {
    if (space === undefined) return { confidentiality: 'private', known: false, why: 'space unknown' };
    const visibility = await this.spaces.of(space);
    if (visibility.warning !== undefined) this.warnings.add(visibility.warning);
    return visibility;
  }

  /** A page (`conf_get_page`'s value): its title and body are its current version's author's. */
  async page(view: { id: string | null; url: string | null }, space: string | undefined, editor: unknown): Promise<ProvenanceLabel> {
    const visibility = await this.place(space);
    const author = authorOf(editor);
    const trust = await this.authors.trustOf(author);
    if (trust.warning !== undefined) this.warnings.add(trust.warning);
    return {
      item: `${space ?? '?'} page ${view.id ?? '?'}`,
      resource: resourceKey('confluence', space ?? 'unknown'),
      integrity: trust.integrity,
      confidentiality: visibility.confidentiality,
      ...(visibility.known ? {} : { assumed: true }),
      author: author.id,
      why: `${trust.why} (last editor); ${visibility.why}`,
      ...(view.url === null ? {} : { url: view.url }),
      at: [],
      fields: ['title', 'body'],
    };
  }

  /** A search page's results: no author is named, so each is untrusted; as private as its space. */
  async searchResults(page: unknown, webBase: string): Promise<ProvenanceLabel[]> {
    const results = (page as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) return [];
    const labels: ProvenanceLabel[] = [];
    for (const [i, result] of results.entries()) {
      const space = spaceOfResult(result);
      const visibility = await this.place(space);
      const r = (result ?? {}) as { content?: { id?: unknown }; url?: unknown };
      const shared = {
        item: `${space ?? '?'} ${r.content?.id === undefined ? `result ${i}` : `page ${String(r.content.id)}`}`,
        resource: resourceKey('confluence', space ?? 'unknown'),
        integrity: 'untrusted' as const,
        confidentiality: visibility.confidentiality,
        ...(visibility.known ? {} : { assumed: true }),
        author: null,
        why: `a search result does not name its author; ${visibility.why}`,
        ...(typeof r.url === 'string' ? { url: `${webBase}${r.url}` } : {}),
      };
      labels.push({ ...shared, at: ['results', i], fields: ['title', 'excerpt'] });
      if (r.content !== undefined) labels.push({ ...shared, at: ['results', i, 'content'], fields: ['title'] });
    }
    return labels;
  }

  result(labels: ProvenanceLabel[]): Provenance {
    return { labels, warnings: [...this.warnings] };
  }
}
