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
  const pending: Array<{ value: unknown; depth: number; name: string }> = [{ value: args, depth: 0, name: '' }];
  while (pending.length > 0) {
    const { value, depth, name } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return name.split('.')[0] || '(arguments)';
    for (const [key, child] of Object.entries(value)) pending.push({ value: child, depth: depth + 1, name: name === '' ? key : `${name}.${key}` });
  }
  return undefined;
}
