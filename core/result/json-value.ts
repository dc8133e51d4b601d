/**
 * What a handler's value may be: JSON, which every later stage (projection, TOON or JSON text, structured
 * content, artifacts) takes it to be. JSON.stringify would turn a Map or a Set into `{}`, a Promise into `{}`,
 * drop a function, and throw on a BigInt or a circular value, so a plugin's slip became an OK result holding
 * `{}` or `null`, or a TypeError naming nothing. The walk that scrubs a handler's output notices such a node
 * (`isJsonNode`, one prototype check per container); `jsonProblem` then says where it is and what to return.
 */

/** Whether JSON holds this node as it is: a string, number, boolean, null, undefined, array or plain object, or an object with `toJSON` (a Date). */
export function isJsonNode(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return true;
    case 'object': {
      if (value === null || Array.isArray(value)) return true;
      const proto: unknown = Object.getPrototypeOf(value);
      return proto === Object.prototype || proto === null || refusedKind(value) === undefined;
    }
    default:
      return false; // bigint, function, symbol
  }
}

/** What JSON would lose of an object that is not a plain one, and what to return instead; undefined if it keeps it. */
function refusedKind(value: object): string | undefined {
  if (typeof (value as { then?: unknown }).then === 'function') return 'is a Promise: await it before returning it.';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  if (value instanceof Map) return 'is a Map, which JSON cannot hold: return Object.fromEntries(map), or an array of its entries.';
  if (value instanceof Set) return 'is a Set, which JSON cannot hold: return an array, [...set].';
  const holdsNoData = value instanceof WeakMap || value instanceof WeakSet || value instanceof RegExp || value instanceof Error;
  if (holdsNoData || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    const kind = (value.constructor as { name?: string } | undefined)?.name ?? 'object';
    return `is a ${kind}, which JSON cannot hold: return its data as plain objects, arrays, strings, numbers and booleans.`;
  }
  return undefined;
}

/** What a primitive JSON cannot hold is, and what to return instead. */
function refusedPrimitive(value: unknown): string | undefined {
  if (typeof value === 'bigint') return 'is a BigInt, which JSON cannot hold: return it as a string (or as a number, below 2^53).';
  if (typeof value === 'function') return 'is a function, which JSON cannot hold: return data only.';
  if (typeof value === 'symbol') return 'is a symbol, which JSON cannot hold: return a string.';
  return undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const member = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/**
 * The first node of `parts` (`{ value, meta }`) that JSON cannot hold, as a sentence naming its path (`value.id
 * is a BigInt, ...`), or a back reference (`value.self.parent refers back to value`); undefined when all are JSON.
 * Iterative, so a deep or circular value cannot overflow the stack; each object is entered once.
 */
export function jsonProblem(parts: Readonly<Record<string, unknown>>): string | undefined {
  const entered = new Set<object>();
  const open = new Map<object, string>(); // the objects on the path from the root to the node, by their path
  const stack: Array<{ node: unknown; path: string } | { leave: object }> = Object.entries(parts)
    .reverse()
    .map(([path, node]) => ({ node, path }));
  while (stack.length > 0) {
    const top = stack.pop()!;
    if ('leave' in top) {
      open.delete(top.leave);
      continue;
    }
    const { node, path } = top;
    const primitive = refusedPrimitive(node);
    if (primitive !== undefined) return `${path} ${primitive}`;
    if (node === null || typeof node !== 'object') continue;
    const back = open.get(node);
    if (back !== undefined) return `${path} refers back to ${back}, a circular value JSON cannot hold: return a copy without the back reference.`;
    if (entered.has(node)) continue; // a part shared by reference, not an ancestor: JSON writes it twice, which it can
    const proto: unknown = Object.getPrototypeOf(node);
    const refused = Array.isArray(node) || proto === Object.prototype || proto === null ? undefined : refusedKind(node);
    if (refused !== undefined) return `${path} ${refused}`;
    entered.add(node);
    open.set(node, path);
    stack.push({ leave: node });
    const children: Array<[string | number, unknown]> = Array.isArray(node)
      ? node.map((item, i): [number, unknown] => [i, item])
      : Object.keys(node).map((key): [string, unknown] => [key, (node as Record<string, unknown>)[key]]);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]![1], path: member(path, children[i]![0]) });
  }
  return undefined;
}
