/**
 * An answer the typed tools read fields of, as an object: whatever else a server answered (null, a list, text)
 * is read as an object with none of them, so a tool says what it could not find rather than failing on it.
 */
export function jsonObject<T extends object>(body: unknown): Partial<T> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Partial<T>) : {};
}
