import { isAscii } from 'node:buffer';
import { LARGE_STRING_BYTES } from '../text/large-string.js';

const BACKSLASH = 0x5c;

/**
 * The JSON text of the UTF-8 `bytes` from `from` to `to`, with every character past ASCII written as a `\u` escape:
 * a text of one byte a character, which JSON.parse turns into the value it gives for the decoded text. Undefined
 * when that text would be a large string (core/text/large-string.ts) or when it could mean something else. Used
 * for a whole body under that size (parse-json-bytes.ts) and for each batch of a big array's elements
 * (json-array-batches.ts).
 *
 * Why: a body with a few characters past Latin-1 decodes to UTF-16, two bytes a character, so a 100 KB Jira page
 * with curly quotes in it is a large string, on pages mapped afresh (1.1-1.2 ms to decode here, where its
 * JSON.parse takes 0.2 ms). Written with escapes it stays one byte a character and below that size.
 *
 * Why the value is the same: in JSON, bytes past ASCII can stand only inside a string, where an escape of a
 * character is that character. Each run is decoded on its own, and since the decoder starts afresh at every
 * ASCII byte (a broken sequence ends there as one U+FFFD), it gives what decoding the whole text gives. A run
 * outside a string is a syntax error either way (a backslash has no place there either). The one escape that
 * would change a text's meaning is a run right after a backslash (`\é`, an error, would read as `\\u00e9`, an
 * escaped backslash): such a body is left to the whole decode.
 */
export function asciiEscapedJson(bytes: Buffer, from: number, to = bytes.length): string | undefined {
  if (to - from > LARGE_STRING_BYTES) return undefined;
  const text = bytes.toString('latin1', from, to);
  let escaped = '';
  let copied = 0;
  // Each character past ASCII takes two bytes or more and becomes six characters.
  let length = text.length;
  for (let block = 0; block < text.length; block += BLOCK) {
    const blockEnd = Math.min(text.length, block + BLOCK);
    if (isAscii(bytes.subarray(from + block, from + blockEnd))) continue;
    for (let at = Math.max(block, copied); at < blockEnd; at++) {
      if (text.charCodeAt(at) < 0x80) continue;
      if (at > 0 && text.charCodeAt(at - 1) === BACKSLASH) return undefined;
      let end = at + 1;
      while (end < text.length && text.charCodeAt(end) >= 0x80) end++;
      const decoded = bytes.toString('utf8', from + at, from + end);
      length += 6 * decoded.length - (end - at);
      if (length > LARGE_STRING_BYTES) return undefined;
      escaped += text.slice(copied, at) + unicodeEscapes(decoded);
      copied = end;
      at = end - 1;
    }
  }
  return copied === 0 ? text : escaped + text.slice(copied);
}

/** Bytes checked at once for any past ASCII (natively); only a block that has some is looked at byte by byte. */
const BLOCK = 512;

/** Each UTF-16 unit of `text` as `\uXXXX`. */
function unicodeEscapes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
