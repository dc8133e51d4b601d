/**
 * How deeply tool arguments may nest. Real request bodies (Jira's Atlassian Document Format included) stay
 * well under 30 levels; thousands of levels would overflow the stack of every recursive step after validation
 * (cloning, JSON serialization, rendering) and be reported as a plugin crash instead of a bad argument.
 */
export const MAX_ARGUMENT_DEPTH = 100;

/**
 * The name of the top-level argument holding the first value nested deeper than `maxDepth` levels, or
 * undefined. Walked with an explicit stack, so the check itself cannot overflow on the values it exists to
 * refuse. Only objects are pushed, and only the name of the top-level key that leads to each: a response
 * body of thousands of nodes is checked on every upstream call, and a record plus a dotted path per node was
 * most of what the check cost (garbage included).
 */
export function tooDeeplyNested(args: unknown, maxDepth = MAX_ARGUMENT_DEPTH): string | undefined {
  if (args === null || typeof args !== 'object') return undefined;
  const values: object[] = [args];
  const depths: number[] = [0];
  // The leading segment of the dotted path the name would have: the first non-empty key on the way down.
  const heads: string[] = [''];
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    const head = heads.pop()!;
    if (depth > maxDepth) return head.split('.')[0] || '(arguments)';
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (child === null || typeof child !== 'object') continue;
      values.push(child);
      depths.push(depth + 1);
      heads.push(head === '' ? key : head);
    }
  }
  return undefined;
}
