import { Kind, type ValueNode } from 'graphql';
import { graphqlLanguage } from '../../core/http/graphql-library.js';
import { forgedKey, nodeLookups, selectsRepository } from './graphql-nodes.js';
import type { Named } from './named.js';

/**
 * The GitHub repositories a GraphQL operation names: variables `owner` and `name`, and each `repository(owner:,
 * name:)` field of the document, its arguments literal or variables. The document is parsed (a comment or a
 * string that spells `repository(` names nothing); a `repository` field whose owner or name cannot be read is
 * undecidable. A node read by id (`node(id:)`, `nodes(ids:)`) is decided by what it answers (graphql-results.ts),
 * so its selection must ask for its repository (`repository { nameWithOwner }`, `nameWithOwner`, `url`): one that
 * does not, or that spells one of those keys as an alias of another field, is undecidable (refused, nothing sent).
 * A mutation's node ids (`subjectId`) are resolved before it is sent (allowlists/owners-first.ts).
 */
export function graphqlRepositories(body: string | undefined): Named[] {
  let operation: { query?: unknown; variables?: unknown };
  try {
    operation = JSON.parse(body ?? '') as typeof operation;
  } catch {
    return [];
  }
  if (operation === null || typeof operation !== 'object' || typeof operation.query !== 'string') return [];
  const variables = operation.variables !== null && typeof operation.variables === 'object' ? (operation.variables as Record<string, unknown>) : {};
  const named: Named[] = [];
  if (typeof variables.owner === 'string' && typeof variables.name === 'string')
    named.push({ kind: 'resource', value: `${variables.owner}/${variables.name}` });
  let document;
  try {
    document = graphqlLanguage().parse(operation.query);
  } catch {
    // The request gate refuses a document that does not parse before anything is sent.
    return named;
  }
  const read = (value: ValueNode | undefined): string | undefined => {
    if (value?.kind === Kind.STRING) return value.value;
    if (value?.kind === Kind.VARIABLE) {
      const v = variables[value.name.value];
      return typeof v === 'string' ? v : undefined;
    }
    return undefined;
  };
  for (const lookup of nodeLookups(document)) {
    const what = `${lookup.plural ? 'nodes(ids:)' : 'node(id:)'} (${lookup.at.join('.')})`;
    const forged = forgedKey(document, lookup.field);
    if (forged !== undefined)
      named.push({
        kind: 'undecidable',
        what: `${what} whose selection aliases another field as ${JSON.stringify(forged)} (select the field by its own name)`,
      });
    else if (!selectsRepository(document, lookup.field))
      named.push({
        kind: 'undecidable',
        what: `${what} whose selection names no repository (add \`repository { nameWithOwner }\` to it, \`nameWithOwner\` for a Repository, or \`url\`)`,
      });
  }
  graphqlLanguage().visit(document, {
    Field(field) {
      if (field.name.value !== 'repository') return;
      const arg = (n: string): ValueNode | undefined => field.arguments?.find((a) => a.name.value === n)?.value;
      const owner = read(arg('owner'));
      const name = read(arg('name'));
      // A `repository` field without both arguments is a nested one (an issue's repository): it names nothing.
      if (arg('owner') === undefined && arg('name') === undefined) return;
      named.push(
        owner !== undefined && name !== undefined
          ? { kind: 'resource', value: `${owner}/${name}` }
          : { kind: 'undecidable', what: 'a repository(owner:, name:) whose owner or name is not a string' },
      );
    },
  });
  return named;
}
