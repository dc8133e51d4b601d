import type { TSchema } from 'typebox';

const cache = new WeakMap<TSchema, Record<string, unknown>>();

/**
 * A tool's envelope as `outputSchema`: a plain JSON copy (TypeBox keeps non-enumerable bookkeeping that must
 * not reach clients), made once per schema. A root `$schema` is dropped: our schemas are written in the subset
 * of JSON Schema 2020-12 that draft-07 validators read the same way, and the official SDK clients validate with
 * a draft-07 Ajv that fails on a 2020-12 `$schema` it does not know.
 */
export function outputSchemaOf(envelope: TSchema): Record<string, unknown> {
  let copy = cache.get(envelope);
  if (copy === undefined) {
    const { $schema: _dialect, ...rest } = JSON.parse(JSON.stringify(envelope)) as Record<string, unknown>;
    copy = rest;
    cache.set(envelope, copy);
  }
  return copy;
}
