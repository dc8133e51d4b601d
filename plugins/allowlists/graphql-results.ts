import { Kind, type OperationDefinitionNode } from 'graphql';
import { graphqlLanguage } from '../../core/http/graphql-library.js';
import type { Allowlist } from '../resource-names/allowlist.js';

/**
 * A GitHub GraphQL answer as the list lets it through: the items of each root `search` field (`nodes` and
 * `edges[].node`) that name a repository off the list, or name none (a search must select `repository {
 * nameWithOwner }`, or `nameWithOwner` for a repository search, for its items to be shown), are left out; the
 * count is returned with the answer. Other root fields are decided by the request (graphql-repositories.ts).
 */
export function allowedGraphqlAnswer(list: Allowlist, requestBody: string | undefined, answer: unknown): { answer: unknown; leftOut: number } {
  const searches = searchKeys(requestBody);
  const data = member(answer, 'data');
  if (searches.length === 0 || data === null || typeof data !== 'object') return { answer, leftOut: 0 };
  let leftOut = 0;
  const newData: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const key of searches) {
    const connection = newData[key];
    if (connection === null || typeof connection !== 'object') continue;
    const replaced: Record<string, unknown> = { ...(connection as Record<string, unknown>) };
    for (const [arrayKey, nodeOf] of [
      ['nodes', (item: unknown) => item],
      ['edges', (item: unknown) => member(item, 'node')],
    ] as const) {
      const items = replaced[arrayKey];
      if (!Array.isArray(items)) continue;
      const kept = items.filter((item) => {
        const repo = repositoryOf(nodeOf(item));
        return repo !== undefined && list.allows(repo);
      });
      leftOut += items.length - kept.length;
      replaced[arrayKey] = kept;
    }
    newData[key] = replaced;
  }
  return leftOut === 0 ? { answer, leftOut } : { answer: { ...(answer as Record<string, unknown>), data: newData }, leftOut };
}

/** `owner/repo` of a search node: its repository's `nameWithOwner`, or its own (a repository). */
function repositoryOf(node: unknown): string | undefined {
  const named = member(member(node, 'repository'), 'nameWithOwner') ?? member(node, 'nameWithOwner');
  return typeof named === 'string' && named !== '' ? named : undefined;
}

/** The response keys (aliases or names) of the operation's root `search` fields. */
function searchKeys(body: string | undefined): string[] {
  let query: unknown;
  try {
    query = (JSON.parse(body ?? '') as { query?: unknown }).query;
  } catch {
    return [];
  }
  if (typeof query !== 'string') return [];
  try {
    const operations = graphqlLanguage()
      .parse(query)
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    return operations.flatMap((op) =>
      op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD && s.name.value === 'search' ? [s.alias?.value ?? s.name.value] : [])),
    );
  } catch {
    return [];
  }
}

function member(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}
