import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** A root `node(id:)` or `nodes(ids:)` field of an operation: where its answer is (response keys from `data`) and its selection. */
export interface NodeLookup {
  /** Response keys down to the field's value (`['node']`, `['relay', 'x']` for an alias under `relay`). */
  readonly at: readonly string[];
  readonly plural: boolean;
  readonly field: FieldNode;
}

/**
 * The fields that read GitHub objects by id: `node(id:)` and `nodes(ids:)` at the root of every operation, and
 * under `relay` (GitHub's Query.relay is the root again, so `relay { node(id:) }` is the same read), through
 * inline fragments and fragment spreads on the root.
 */
export function nodeLookups(document: DocumentNode): NodeLookup[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const found: NodeLookup[] = [];
  const walk = (set: SelectionSetNode, at: readonly string[], seen: ReadonlySet<string>): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, at, seen);
      else if (s.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(s.name.value);
        if (fragment !== undefined && !seen.has(s.name.value)) walk(fragment.selectionSet, at, new Set([...seen, s.name.value]));
      } else {
        const key = s.alias?.value ?? s.name.value;
        if ((s.name.value === 'node' || s.name.value === 'nodes') && s.selectionSet !== undefined)
          found.push({ at: [...at, key], plural: s.name.value === 'nodes', field: s });
        else if (s.name.value === 'relay' && s.selectionSet !== undefined && at.length < 8) walk(s.selectionSet, [...at, key], seen);
      }
    }
  };
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) walk(d.selectionSet, [], new Set());
  return found;
}

/**
 * Whether a node lookup's selection asks for what says which repository the node belongs to: `nameWithOwner`
 * (a Repository), `repository { nameWithOwner }` (an issue, a pull request, a comment...), or `url` (anything
 * with a web address), directly or in its fragments. Without one, no answer can be held to a list of repositories.
 */
export function selectsRepository(document: DocumentNode, field: FieldNode): boolean {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const has = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>, inRepository: boolean): boolean =>
    set?.selections.some((s) => {
      if (s.kind === Kind.INLINE_FRAGMENT) return has(s.selectionSet, seen, inRepository);
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(s.name.value);
        return fragment !== undefined && !seen.has(s.name.value) && has(fragment.selectionSet, new Set([...seen, s.name.value]), inRepository);
      }
      // Unaliased only: an alias (`url: title`) would put another value where the name is read.
      if (s.alias !== undefined) return false;
      if (s.name.value === 'nameWithOwner') return true;
      if (!inRepository && s.name.value === 'url') return true;
      return !inRepository && s.name.value === 'repository' && has(s.selectionSet, seen, true);
    }) ?? false;
  return has(field.selectionSet, new Set(), false);
}

/** The keys the answer of a node is decided by: an alias that spells one for another field would forge it. */
const DECIDING_KEYS: ReadonlySet<string> = new Set(['nameWithOwner', 'repository', 'url', '__typename', 'id']);

/** An alias in a node lookup's selection that spells a deciding key for another field (`url: title`), or undefined. */
export function forgedKey(document: DocumentNode, field: FieldNode): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const find = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): string | undefined => {
    for (const s of set?.selections ?? []) {
      let found: string | undefined;
      if (s.kind === Kind.INLINE_FRAGMENT) found = find(s.selectionSet, seen);
      else if (s.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(s.name.value);
        if (fragment !== undefined && !seen.has(s.name.value)) found = find(fragment.selectionSet, new Set([...seen, s.name.value]));
      } else if (s.alias !== undefined && s.alias.value !== s.name.value && DECIDING_KEYS.has(s.alias.value)) found = `${s.alias.value}: ${s.name.value}`;
      else if (s.name.value === 'repository' && s.alias === undefined) found = find(s.selectionSet, seen);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return find(field.selectionSet, new Set());
}
