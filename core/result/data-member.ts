/**
 * Makes `key` an own, enumerable, writable data member of the plain object `target`, as JSON.parse makes every
 * key of a body. By assignment, which V8 does in a fraction of the time of `Object.defineProperty` (0.05 against
 * 0.36-0.41 ms for 637 objects of three keys, the projection of a 1 MiB Jira page), except for `"__proto__"`:
 * assigned, that key would set the object's prototype rather than be a key, so it is defined. No other key of
 * Object.prototype is a setter, and a key the object already has keeps its place and takes the new value.
 */
export function setDataMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
