import { encode } from '@toon-format/toon';
import { isPlainContainer, jsonPieces } from '../../core/result/json-pieces.js';
import { flattened } from '../../core/text/flattened.js';
import { toonPieces } from './fast-encode.js';

/**
 * The one renderer of every vendor: TOON 2.3.1 with `{indent: 2}` by default, pretty JSON on request. Neither
 * ends with a newline. If TOON cannot encode a value, JSON is shown instead (as the reference servers do).
 * Plain JSON goes through the fast encoder (the same bytes); anything else through the library itself.
 */
export function renderValue(value: unknown, format: unknown): string {
  return renderPieces(value, format).join('');
}

/**
 * The same text, as consecutive pieces: the fast encoder's when it renders the value (toonPieces says why),
 * JSON's when it is `large` (core/pipeline/answer.ts, hasLargeText), else the whole text as one piece.
 */
export function renderPieces(value: unknown, format: unknown, large = false): string[] {
  const json = (): string => JSON.stringify(value, null, 2) ?? 'null';
  if (format === 'json') return large && isPlainContainer(value) ? Array.from(jsonPieces(value, 2), flattened) : [json()];
  try {
    return toonPieces(value);
  } catch {
    // not plain JSON, or nested too deep: the library decides, as it always did
  }
  try {
    return [encode(value, { indent: 2 })];
  } catch {
    return [json()];
  }
}
