/**
 * Changes the named string fields of the object at `at` in a JSON value, copying only the objects on the way
 * (the handler's value is never changed in place). A path that does not lead to an object changes nothing.
 */
export function withFields(
  value: unknown,
  at: ReadonlyArray<string | number>,
  fields: readonly string[],
  change: (text: string, field: string) => string,
): unknown {
  if (at.length === 0) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const field of fields) {
      const text = copy[field];
      if (typeof text === 'string' && text !== '') copy[field] = change(text, field);
    }
    return copy;
  }
  const [step, ...rest] = at;
  if (Array.isArray(value) && typeof step === 'number' && step >= 0 && step < value.length) {
    const copy = [...value];
    copy[step] = withFields(value[step], rest, fields, change);
    return copy;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof step === 'string' && Object.hasOwn(value, step)) {
    return { ...(value as Record<string, unknown>), [step]: withFields((value as Record<string, unknown>)[step], rest, fields, change) };
  }
  return value;
}

/** The strings at the named fields of the object at `at` (whether a label has any text to fence). */
export function fieldTexts(value: unknown, at: ReadonlyArray<string | number>, fields: readonly string[]): string[] {
  let node: unknown = value;
  for (const step of at) {
    if (node === null || typeof node !== 'object') return [];
    node = (node as Record<string | number, unknown>)[step];
  }
  if (node === null || typeof node !== 'object') return [];
  return fields.map((f) => (node as Record<string, unknown>)[f]).filter((t): t is string => typeof t === 'string');
}

/** Whether any string or key of a JSON value contains `needle` (for a boundary no text of the result holds). */
export function anyStringHolds(value: unknown, needle: string): boolean {
  if (typeof value === 'string') return value.includes(needle);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => anyStringHolds(item, needle));
  for (const [key, item] of Object.entries(value)) if (key.includes(needle) || anyStringHolds(item, needle)) return true;
  return false;
}
