import { Kind, type DocumentNode } from 'graphql';
import { graphqlLanguage } from '../../core/http/graphql-library.js';
import type { Allowlist } from '../resource-names/allowlist.js';
import { nodeLookups } from '../resource-names/graphql-nodes.js';

/** What a node read by id answered that its list does not let through: the repository off it, or none it could name. */
export interface RefusedNode {
  /** Where in `data` (`node`, `nodes[1]`). */
  readonly at: string;
  readonly typename: string | undefined;
  /** The repository off the list; undefined when the node names none the list can decide. */
  readonly repository: string | undefined;
}

/**
 * Types whose objects belong to no repository: a node of one that names none is kept (an allowlist of
 * repositories is not about people or organizations). Any other type must name its repository.
 */
export const NOT_IN_A_REPOSITORY: ReadonlySet<string> = new Set([
  'User',
  'Organization',
  'Bot',
  'Mannequin',
  'Enterprise',
  'EnterpriseUserAccount',
  'App',
  'Team',
]);

/** First segments of a GitHub web address that are no owner: `/orgs/acme/teams/x`, `/enterprises/x`, `/sponsors/x`. */
const NOT_AN_OWNER: ReadonlySet<string> = new Set([
  'orgs',
  'organizations',
  'users',
  'enterprises',
  'sponsors',
  'apps',
  'marketplace',
  'settings',
  'topics',
  'collections',
  'advisories',
  'features',
]);

/**
 * The first node read by id (`node(id:)`, `nodes(ids:)`, also under `relay`) whose answer the list does not let
 * through, or undefined when all do (or the operation reads none). A node is decided by its repository:
 * `repository.nameWithOwner`, its own `nameWithOwner` (a Repository), or its `url` (`https://github.com/acme/app/
 * issues/1`; an address of no repository, `https://github.com/mia`, names none). One that names none is kept
 * only when it shows nothing (only `id`, `__typename`) or is of a type that belongs to no repository (a User).
 * The request gate has already refused a selection that cannot name a repository (graphql-repositories.ts).
 */
export function refusedNode(list: Allowlist, requestBody: string | undefined, answer: unknown): RefusedNode | undefined {
  const document = documentOf(requestBody);
  if (document === undefined) return undefined;
  const data = member(answer, 'data');
  for (const lookup of nodeLookups(document)) {
    let value: unknown = data;
    for (const key of lookup.at) value = member(value, key);
    const nodes = lookup.plural ? (Array.isArray(value) ? value : []) : [value];
    for (const [i, node] of nodes.entries()) {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
      const at = `${lookup.at.join('.')}${lookup.plural ? `[${i}]` : ''}`;
      const typename = typeof member(node, '__typename') === 'string' ? (member(node, '__typename') as string) : undefined;
      const repository = repositoryOf(node);
      if (typeof repository === 'string') {
        if (!list.allows(repository)) return { at, typename, repository };
        continue;
      }
      if (repository === null) continue;
      const shown = Object.keys(node).filter((k) => k !== '__typename' && k !== 'id');
      if (shown.length === 0 || (typename !== undefined && NOT_IN_A_REPOSITORY.has(typename))) continue;
      return { at, typename, repository: undefined };
    }
  }
  return undefined;
}

/** `owner/repo` a node names; null when its address is of no repository; undefined when it names nothing. */
export function repositoryOf(node: unknown): string | null | undefined {
  const named = member(member(node, 'repository'), 'nameWithOwner') ?? member(node, 'nameWithOwner');
  if (typeof named === 'string' && named !== '') return named;
  const url = member(node, 'url');
  if (typeof url !== 'string') return undefined;
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').filter((s) => s !== '');
  } catch {
    return undefined;
  }
  if (segments.length === 0 || NOT_AN_OWNER.has(segments[0]!.toLowerCase())) return null;
  if (segments.length === 1) return null;
  return `${decodeURIComponent(segments[0]!)}/${decodeURIComponent(segments[1]!)}`;
}

function documentOf(body: string | undefined): DocumentNode | undefined {
  try {
    const query = (JSON.parse(body ?? '') as { query?: unknown }).query;
    if (typeof query !== 'string') return undefined;
    const document = graphqlLanguage().parse(query);
    return document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION) ? document : undefined;
  } catch {
    return undefined;
  }
}

function member(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}
