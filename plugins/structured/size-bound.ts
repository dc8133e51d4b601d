import { jsonPieces } from '../../core/result/json-pieces.js';
import type { Incomplete } from './structured-value.js';

/**
 * Saves the serialized full value (whole, or as consecutive pieces made while it is saved); resolves to its
 * artifact id, or null when it could not be saved.
 */
export type SaveFullValue = (serialized: string | Iterable<string>) => Promise<string | null>;

export type Bounded =
  | { kind: 'within'; value: unknown; bytes: number }
  | { kind: 'spilled'; value: Record<string, unknown> }
  /** Over the bound with a non-object root: there is no `incomplete` to say so, so nothing is sent. */
  | { kind: 'withheld'; bytes: number };

/**
 * Applies MCP_STRUCTURED_MAX_BYTES to a structured value. A value is never clipped: over the bound, the full
 * value (exactly as `structuredContent` would have carried it) goes to an artifact, and the result keeps the
 * tool metadata with `data: null` and `incomplete` saying why, how big, the bound, and where the value is.
 * `objectRooted` is whether the envelope is an object schema, so `{data, ...meta}` is the value's shape.
 */
export async function applySizeBound(value: unknown, objectRooted: boolean, maxBytes: number, save: SaveFullValue, streamed = false): Promise<Bounded> {
  if (streamed) return applySizeBoundStreamed(value, objectRooted, maxBytes, save);
  const serialized = JSON.stringify(value);
  const bytes = Buffer.byteLength(serialized, 'utf8');
  if (bytes <= maxBytes) return { kind: 'within', value, bytes };
  if (!objectRooted) return { kind: 'withheld', bytes };
  const { data: _full, ...meta } = value as Record<string, unknown>;
  const incomplete: Incomplete = { reason: 'size', bytes, limitBytes: maxBytes, artifactId: await save(serialized) };
  return { kind: 'spilled', value: { data: null, ...meta, incomplete } };
}

/**
 * The same bound for a big value, serialized in pieces (jsonPieces) rather than as one string: the pieces
 * within the bound are kept until the bound is passed, and from then on each piece goes to the artifact as it
 * is made, so the whole serialization never exists. The size is counted as the pieces go, to the end even
 * when saving fails part way. Same results, byte for byte, as applySizeBound.
 */
async function applySizeBoundStreamed(value: unknown, objectRooted: boolean, maxBytes: number, save: SaveFullValue): Promise<Bounded> {
  const pieces = jsonPieces(value);
  const head: string[] = [];
  let bytes = 0;
  for (let next = pieces.next(); !next.done; next = pieces.next()) {
    head.push(next.value);
    bytes += Buffer.byteLength(next.value, 'utf8');
    if (bytes > maxBytes) break;
  }
  if (bytes <= maxBytes) return { kind: 'within', value, bytes };
  const rest = function* (): Generator<string> {
    for (let next = pieces.next(); !next.done; next = pieces.next()) {
      bytes += Buffer.byteLength(next.value, 'utf8');
      yield next.value;
    }
  };
  if (!objectRooted) {
    for (const _piece of rest());
    return { kind: 'withheld', bytes };
  }
  const { data: _full, ...meta } = value as Record<string, unknown>;
  const artifactId = await save(
    (function* (): Generator<string> {
      while (head.length > 0) yield head.shift()!;
      yield* rest();
    })(),
  );
  for (const _piece of rest()); // what a failed save left unread still counts
  const incomplete: Incomplete = { reason: 'size', bytes, limitBytes: maxBytes, artifactId };
  return { kind: 'spilled', value: { data: null, ...meta, incomplete } };
}
