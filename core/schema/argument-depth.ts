/**
 * How deeply tool arguments may nest. Real request bodies (Jira's Atlassian Document Format included) stay
 * well under 30 levels; thousands of levels would overflow the stack of every recursive step after validation
 * (cloning, JSON serialization, rendering) and be reported as a plugin crash instead of a bad argument.
 */
export const MAX_ARGUMENT_DEPTH = 100;

/**
 * The dotted name of the first argument nested deeper than `maxDepth` levels, or undefined. Walked with an
 * explicit stack, so the check itself cannot overflow on the values it exists to refuse.
 */
export function tooDeeplyNested(args: unknown, maxDepth = MAX_ARGUMENT_DEPTH): string | undefined {
  // Nearly every value passes: the allocation-free check says so, and only a refused one is walked for its name.
  if (!nestsDeeperThan(args, maxDepth)) return undefined;
  const pending: Array<{ value: unknown; depth: number; name: string }> = [{ value: args, depth: 0, name: '' }];
  while (pending.length > 0) {
    const { value, depth, name } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return name.split('.')[0] || '(arguments)';
    for (const [key, child] of Object.entries(value)) pending.push({ value: child, depth: depth + 1, name: name === '' ? key : `${name}.${key}` });
  }
  return undefined;
}

/**
 * Whether any object or array in `value` sits deeper than `maxDepth` levels (the root is level 0). It runs on
 * every response body and every call's arguments, so it is kept cheap (bracketDepth says how).
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  return bracketDepth(value, maxDepth + 1) > maxDepth + 1;
}

/**
 * How many brackets deep `value` goes (0 for a primitive, 1 for a flat object or array), counted to `limit` at
 * most: anything deeper is reported as `limit` + 1. Recursive but bounded: it returns as soon as it is past
 * `limit`, so the stack never holds more than `limit` + 1 frames, whatever the value. Only a member that is an
 * object or array costs a call, and an object's members are read with Object.values (its own enumerable
 * string-keyed members, as `for...in` with `hasOwn` saw them, about half the time on a 1 MiB Jira page: 1,074
 * against 521 us; the one array it makes per object is young garbage).
 */
export function bracketDepth(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit <= 0) return 1;
  const members: unknown[] = Array.isArray(value) ? value : Object.values(value);
  let deepest = 0;
  for (let i = 0; i < members.length; i++) {
    const member = members[i];
    if (member !== null && typeof member === 'object') {
      const depth = bracketDepth(member, limit - 1);
      if (depth > deepest) deepest = depth;
      if (deepest >= limit) break;
    }
  }
  return deepest + 1;
}
