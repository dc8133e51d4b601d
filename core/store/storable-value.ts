/**
 * keyv serialises values as JSON (with Buffers as `:base64:` strings). JSON quietly changes some values: NaN
 * becomes null, a Date a string, a Map `{}`, `undefined` in an array null, and a BigInt or a cycle throws deep
 * inside keyv. A store must give back what it was given, so such values are refused up front, with the path to
 * the offending part, instead of being altered.
 */
export function assertStorable(value: unknown, where: string): void {
  if (value === undefined) throw refusal(where, '', 'is undefined; a missing entry already reads as undefined, so store null instead');
  check(value, where, '', new Set());
}

function check(value: unknown, where: string, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw refusal(where, path, `is ${value}, which would come back as null`);
      return;
    case 'bigint':
      throw refusal(where, path, 'is a BigInt, which JSON cannot hold; store it as a string');
    case 'undefined':
      throw refusal(where, path, 'is undefined inside an array, which would come back as null');
    case 'symbol':
    case 'function':
      throw refusal(where, path, `is a ${typeof value}, which cannot be stored`);
  }
  if (value === null || Buffer.isBuffer(value)) return;
  const object = value as object;
  if (ancestors.has(object)) throw refusal(where, path, 'refers back to itself (a cycle)');
  ancestors.add(object);
  if (Array.isArray(object)) {
    object.forEach((item, index) => check(item, where, `${path}[${index}]`, ancestors));
  } else {
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      const name = (object.constructor as { name?: string } | undefined)?.name || 'object with a prototype';
      throw refusal(where, path, `is a ${name}, which would not come back as one; store plain objects, arrays, strings, numbers, booleans, null or Buffers`);
    }
    for (const [key, item] of Object.entries(object)) {
      // An undefined property is dropped, and reading it back still gives undefined: nothing observable changes.
      if (item !== undefined) check(item, where, `${path}.${key}`, ancestors);
    }
  }
  ancestors.delete(object);
}

function refusal(where: string, path: string, problem: string): TypeError {
  return new TypeError(`Cannot store ${where}: the value${path === '' ? '' : ` at ${path.replace(/^\./, '')}`} ${problem}.`);
}
