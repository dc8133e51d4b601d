import type { Incomplete } from './structured-value.js';

/** Saves the serialized full value; resolves to its artifact id, or null when it could not be saved. */
export type SaveFullValue = (serialized: string) => Promise<string | null>;

export type Bounded =
  | { kind: 'within'; value: unknown }
  | { kind: 'spilled'; value: Record<string, unknown> }
  /** Over the bound with a non-object root: there is no `incomplete` to say so, so nothing is sent. */
  | { kind: 'withheld'; bytes: number };

/**
 * Applies MCP_STRUCTURED_MAX_BYTES to a structured value. A value is never clipped: over the bound, the full
 * value (exactly as `structuredContent` would have carried it) goes to an artifact, and the result keeps the
 * tool metadata with `data: null` and `incomplete` saying why, how big, the bound, and where the value is.
 * `objectRooted` is whether the envelope is an object schema, so `{data, ...meta}` is the value's shape.
 */
export async function applySizeBound(value: unknown, objectRooted: boolean, maxBytes: number, save: SaveFullValue): Promise<Bounded> {
  const serialized = JSON.stringify(value);
  const bytes = Buffer.byteLength(serialized, 'utf8');
  if (bytes <= maxBytes) return { kind: 'within', value };
  if (!objectRooted) return { kind: 'withheld', bytes };
  const { data: _full, ...meta } = value as Record<string, unknown>;
  const incomplete: Incomplete = { reason: 'size', bytes, limitBytes: maxBytes, artifactId: await save(serialized) };
  return { kind: 'spilled', value: { data: null, ...meta, incomplete } };
}
