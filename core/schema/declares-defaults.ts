import type { TSchema } from 'typebox';

const known = new WeakMap<TSchema, boolean>();

/**
 * Whether a schema declares a `default` anywhere in it, decided once per schema. Applying defaults (typebox's
 * Value.Default) walks the schema and the arguments on every call, checking each union member against the value
 * as it goes; with no `default` to apply it changes nothing, so a call to a tool without any (most of them, the
 * Atlassian passthroughs included) skips it. Conservative: a property that happens to be named `default` counts.
 */
export function declaresDefaults(schema: TSchema): boolean {
  let answer = known.get(schema);
  if (answer === undefined) known.set(schema, (answer = holdsDefault(schema, new Set())));
  return answer;
}

function holdsDefault(node: unknown, seen: Set<object>): boolean {
  if (node === null || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (!Array.isArray(node) && Object.hasOwn(node, 'default')) return true;
  return Object.values(node).some((child) => holdsDefault(child, seen));
}
