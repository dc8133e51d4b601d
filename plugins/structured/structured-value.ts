import type { Produced } from '../../core/plugin/call.js';

/** Why `data` is not the whole result. */
export interface Incomplete {
  reason: 'size' | 'unavailable';
  /** The full serialized length in UTF-8 bytes (0 when unavailable). */
  bytes: number;
  /** The bound in force (0 when unavailable). */
  limitBytes: number;
  /** The artifact holding the full value; null when it could not be saved (or there was nothing to save). */
  artifactId: string | null;
}

/**
 * The structured value of a successful call, before the size bound. An object-rooted envelope gets
 * `{data: <value after jq>, ...meta}` (meta in the order the tool reported it, as the text renders it). A
 * non-object-rooted envelope (a third-party plugin's) types the value itself, which has nowhere to put meta.
 * A tool that advertised a schema but produced no value is a defect: it gets `data: null` and
 * `incomplete.reason: "unavailable"` rather than a result that breaks its own schema; with a non-object root
 * that cannot be said, so the result stays text only (undefined).
 */
export function structuredValue(produced: Produced, objectRooted: boolean): unknown {
  const meta = definedEntries(produced.output.meta);
  if (produced.value === undefined) {
    if (!objectRooted) return undefined;
    const incomplete: Incomplete = { reason: 'unavailable', bytes: 0, limitBytes: 0, artifactId: null };
    return { data: null, ...meta, incomplete };
  }
  return objectRooted ? { data: produced.value, ...meta } : produced.value;
}

/** Meta without undefined entries: in-process results must equal what a client decodes from the wire. */
function definedEntries(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta ?? {})) if (value !== undefined) out[key] = value;
  return out;
}
