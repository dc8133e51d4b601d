import { ToolError } from '../../core/errors/tool-error.js';
import type { InterceptContext, UpstreamInterceptor } from '../../core/plugin/tool-context.js';
import type { Allowlist } from '../resource-names/allowlist.js';
import type { ListedVendor } from '../resource-names/named-resources.js';
import { RESOURCE, type Allowlists } from './allowlist-gate.js';
import { ownerLookup, type OwnerLookup } from './owner-lookups.js';
import { NOT_IN_A_REPOSITORY, repositoryOf } from './graphql-node-results.js';
import { MOST_IDS, mutationNodeIds } from '../resource-names/graphql-mutation-ids.js';
import type { PreparedRequest } from '../../core/plugin/upstream-types.js';

/** How long what a pipeline, workflow or page belongs to is remembered: it never changes for a pipeline; a page may move. */
const REMEMBERED_MS = 10 * 60_000;
/** The most owners remembered (the oldest go first). */
const MOST_REMEMBERED = 2000;
/** What a GitHub node by id belongs to, read for a mutation: a repository's name, an issue's repository, or a web address. */
const NODES_QUERY =
  'query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Repository { nameWithOwner } ... on RepositoryNode { repository { nameWithOwner } } ... on UniformResourceLocatable { url } } }';
/** Reads one request's owner may take: a v2 page, then its space. */
const MOST_READS = 3;

/**
 * Decides a request by id whose path names no resource, before it is sent (owner-lookups.ts): the resource it
 * belongs to is read first (remembered per vendor and credential), and a request off the list is refused with
 * nothing sent. So a CircleCI pipeline's config, a workflow's rerun or a Confluence page's update by id are held
 * to the list like a request that names its project or space.
 */
export class OwnersFirst {
  // What pipelines, workflows, pages and GitHub nodes belong to, by vendor, credential and id.
  private readonly owners = new Map<string, { name: string; until: number }>();

  constructor(private readonly lists: Allowlists) {}

  interceptor(): UpstreamInterceptor {
    return {
      name: 'owners-first',
      after: ['kernel/request-gate'],
      run: async (request, exchange, next) => {
        const vendor = exchange.identity.vendor as ListedVendor;
        const list = this.lists[vendor];
        if (list !== undefined && vendor === 'github' && request.graphql?.operation === 'mutation') await this.decideMutation(list, request, exchange);
        const lookup = list === undefined ? undefined : ownerLookup(vendor, request);
        if (list !== undefined && lookup !== undefined) {
          const owner = await this.ownerOf(lookup, exchange);
          const what = `${exchange.tool.toolName} (${request.method} ${request.path.split('?', 1)[0]})`;
          if (owner === undefined)
            throw refused(
              list,
              `${what} addresses ${lookup.what}, whose ${RESOURCE[vendor]} could not be read, so ${list.setting} cannot decide it; nothing was sent.`,
            );
          if (!list.allows(owner))
            throw refused(
              list,
              `${what} addresses ${lookup.what} of the ${RESOURCE[vendor]} ${owner}, which ${list.setting} (${list.patterns.join(',')}) does not allow: add ${owner} to ${list.setting} to allow it; nothing was sent.`,
              owner,
            );
        }
        return next();
      },
    };
  }

  /**
   * A GitHub GraphQL mutation by node id (`addComment(input: {subjectId})`): the nodes it names are read first
   * (`nodes(ids:)`, their repository by `RepositoryNode.repository`, a Repository's own name, or their web address),
   * and one of a repository off the list, or of none the list can decide, refuses it with nothing sent. A node of
   * no repository (a user, an organization) and an id that reads as nothing (the mutation fails the same way) pass.
   */
  private async decideMutation(list: Allowlist, request: PreparedRequest, exchange: InterceptContext): Promise<void> {
    const ids = mutationNodeIds(request.body);
    if (ids === undefined || ids.length === 0) return;
    const what = `${exchange.tool.toolName} (a GraphQL mutation)`;
    if (ids.length > MOST_IDS)
      throw refused(list, `${what} names ${ids.length} nodes by id, more than the ${MOST_IDS} ${list.setting} can read to decide; nothing was sent.`);
    const scope = `${exchange.identity.vendor}\0${exchange.identity.fingerprint}\0node:`;
    const now = Date.now();
    const unknown = ids.filter((id) => !((this.owners.get(scope + id)?.until ?? 0) > now));
    if (unknown.length > 0) {
      const response = await exchange.lookup({ graphql: { document: NODES_QUERY, variables: { ids: unknown } } });
      const nodes = (response.body as { data?: { nodes?: unknown } } | undefined)?.data?.nodes;
      if (!Array.isArray(nodes) || nodes.length !== unknown.length)
        throw refused(list, `${what} names nodes by id whose repositories could not be read, so ${list.setting} cannot decide it; nothing was sent.`);
      for (const [i, node] of nodes.entries()) {
        if (node === null || typeof node !== 'object') continue;
        const repository = repositoryOf(node);
        const typename = (node as { __typename?: unknown }).__typename;
        if (typeof repository === 'string') this.remember(scope + unknown[i]!, repository, now);
        else if (repository === undefined && !(typeof typename === 'string' && NOT_IN_A_REPOSITORY.has(typename)))
          throw refused(
            list,
            `${what} names node ${unknown[i]}${typeof typename === 'string' ? ` (a ${typename})` : ''}, which belongs to no repository ${list.setting} can decide; nothing was sent.`,
          );
      }
    }
    for (const id of ids) {
      const owner = this.owners.get(scope + id)?.name;
      if (owner !== undefined && !list.allows(owner))
        throw refused(
          list,
          `${what} names node ${id} of the GitHub repository ${owner}, which ${list.setting} (${list.patterns.join(',')}) does not allow: add ${owner} to ${list.setting} to allow it; nothing was sent.`,
          owner,
        );
    }
  }

  /** The resource `lookup` names, remembered or read (a further read when the first names it by id). */
  private async ownerOf(lookup: OwnerLookup, exchange: InterceptContext): Promise<string | undefined> {
    const scope = `${exchange.identity.vendor}\0${exchange.identity.fingerprint}\0`;
    const now = Date.now();
    const known = this.owners.get(scope + lookup.key);
    if (known !== undefined && known.until > now) return known.name;
    let current: OwnerLookup = lookup;
    for (let reads = 0; reads < MOST_READS; reads++) {
      const response = await exchange.lookup({ path: current.path });
      const named = current.nameOf(response.body);
      if (typeof named === 'string') {
        this.remember(scope + lookup.key, named, now);
        return named;
      }
      if (named === undefined) return undefined;
      current = named;
    }
    return undefined;
  }

  private remember(key: string, name: string, now: number): void {
    this.owners.delete(key);
    this.owners.set(key, { name, until: now + REMEMBERED_MS });
    if (this.owners.size > MOST_REMEMBERED) this.owners.delete(this.owners.keys().next().value!);
  }
}

function refused(list: Allowlist, message: string, value?: string): ToolError {
  return new ToolError('policy_denied', message, {
    meta: { code: 'policy_denied', allowlist: { setting: list.setting, ...(value === undefined ? {} : { value }) } },
  });
}
