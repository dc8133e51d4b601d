import { StartupError } from '../errors/tool-error.js';

/** Something placed in the call's order: a stage middleware, an upstream interceptor or a call-wide step, named `plugin/name`. */
export interface Placed {
  readonly plugin: string;
  readonly name: string;
  /** Contributors of the same place (stage, interceptor chain) this one runs before, by `plugin/name`. */
  readonly before?: readonly string[];
  /** Contributors of the same place this one runs after, by `plugin/name`. */
  readonly after?: readonly string[];
}

export const qualifiedName = (p: Pick<Placed, 'plugin' | 'name'>): string => `${p.plugin}/${p.name}`;

/**
 * The contributors of one place (`where`: "the envelope stage", "the upstream interceptors") in the order their
 * `before`/`after` declarations give, the same whatever order they were collected in: a topological order that,
 * when several could come next, takes the first by qualified name. A name that no contributor of this place
 * has, a name given twice, and a cycle fail start-up with a sentence naming the plugins.
 */
export function placedOrder<T extends Placed>(items: readonly T[], where: string): T[] {
  const byName = new Map<string, T>();
  for (const item of items) {
    const name = qualifiedName(item);
    const twin = byName.get(name);
    if (twin !== undefined) throw new StartupError(`Plugin "${item.plugin}" contributes "${name}" to ${where} twice: give each contribution its own name.`);
    byName.set(name, item);
  }
  // An edge a -> b: a runs before b.
  const later = new Map<string, Set<string>>([...byName.keys()].map((n) => [n, new Set<string>()]));
  const edge = (from: string, to: string): void => void later.get(from)!.add(to);
  for (const item of items) {
    const self = qualifiedName(item);
    for (const [relation, names] of [
      ['before', item.before ?? []],
      ['after', item.after ?? []],
    ] as const) {
      for (const other of names) {
        if (!byName.has(other)) throw new StartupError(unknownName(item, relation, other, where, [...byName.keys()]));
        if (relation === 'before') edge(self, other);
        else edge(other, self);
      }
    }
  }
  const waiting = new Map<string, number>([...byName.keys()].map((n) => [n, 0]));
  for (const targets of later.values()) for (const t of targets) waiting.set(t, waiting.get(t)! + 1);
  const ready = [...waiting].filter(([, n]) => n === 0).map(([name]) => name);
  const ordered: T[] = [];
  while (ready.length > 0) {
    ready.sort();
    const next = ready.shift()!;
    ordered.push(byName.get(next)!);
    for (const t of later.get(next)!) {
      const left = waiting.get(t)! - 1;
      waiting.set(t, left);
      if (left === 0) ready.push(t);
    }
  }
  if (ordered.length < items.length) throw new StartupError(cycleSentence(later, new Set(ordered.map(qualifiedName)), byName, where));
  return ordered;
}

function unknownName(item: Placed, relation: string, other: string, where: string, known: readonly string[]): string {
  const others = known.filter((n) => n !== qualifiedName(item));
  const there = others.length === 0 ? `nothing else runs there` : `there: ${others.join(', ')}`;
  return (
    `Plugin "${item.plugin}" places "${qualifiedName(item)}" ${relation} "${other}", which no loaded plugin contributes to ${where} (${there}).` +
    ' Load the plugin that contributes it, or place it next to one that runs there.'
  );
}

/** One cycle among the contributors left unordered, as a sentence naming the plugins whose declarations make it. */
function cycleSentence(later: ReadonlyMap<string, ReadonlySet<string>>, done: ReadonlySet<string>, byName: ReadonlyMap<string, Placed>, where: string): string {
  const left = [...later.keys()].filter((n) => !done.has(n)).sort();
  // Walk from the first left-over contributor along edges among the left-over ones until a name repeats.
  const path: string[] = [left[0]!];
  for (;;) {
    const step = [...later.get(path[path.length - 1]!)!].filter((n) => !done.has(n)).sort()[0]!;
    const at = path.indexOf(step);
    if (at !== -1) {
      const cycle = [...path.slice(at), step];
      const plugins = [...new Set(cycle.map((n) => byName.get(n)!.plugin))].map((p) => `"${p}"`);
      const who = plugins.length === 1 ? `Plugin ${plugins[0]!} places its` : `The plugins ${plugins.join(' and ')} place their`;
      return `${who} contributions to ${where} in a cycle: ${cycle.join(' runs before ')}.` + ' Remove one of these before/after declarations.';
    }
    path.push(step);
  }
}
