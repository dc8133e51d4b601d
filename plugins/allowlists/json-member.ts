/** The member at a path of keys in a JSON value, or undefined where the path leaves objects. */
export function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A non-empty string, or undefined. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
