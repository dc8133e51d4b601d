import { LARGE_STRING_BYTES } from '../text/large-string.js';
import { asciiEscapedJson } from './ascii-escaped-json.js';

/**
 * Bytes of elements read by one JSON.parse: under LARGE_STRING_BYTES with room for two brackets and for the
 * escapes of some characters past ASCII (a batch that they make a large string is read element by element).
 * Twice as many (a few large batches instead of many) made no difference on the bench's 1 MiB page.
 */
export const BATCH_BYTES = (LARGE_STRING_BYTES * 3) / 8;

/** How far into the second element its first key's colon is looked for, to make the seam. */
const FIRST_KEY_BYTES = 64;

const OPEN_OBJECT = 0x7b;
const COLON = 0x3a;

/**
 * The elements of a big array of objects, read a batch at a time. Element by element, the parser's scan went
 * over every byte in JavaScript to find where each element ends, and JSON.parse then read the same bytes
 * again: on a 367 KB workflow-runs page, half of the parse. Here the end of a batch is guessed natively: the
 * bytes between the first two elements, the first one's closing brace to the second one's first key (`},{"id":`,
 * whitespace included), are searched for backwards from BATCH_BYTES on, and JSON.parse of the bytes up to that
 * brace, in brackets, checks the guess. It succeeds only when they are whole elements, and they are then the
 * elements JSON.parse of the whole body gives: the batch starts where an element starts, and JSON is read from
 * the left. A guess that falls inside an element (an array nested in it whose objects start with the same key)
 * fails, and the array is read element by element from there, as it was before batches.
 *
 * Measured in process on that page: 0.70 against 0.95-1.00 ms (the bracket walk of the batches included);
 * under load (16 clients over HTTP) the parse's share of the server's CPU fell from 20 to 11 %, but calls/s
 * moved within the windows' noise (0.91-1.16x).
 *
 * A batch with characters past ASCII is read with each of them written as a `\u` escape (asciiEscapedJson), so
 * its text stays one byte a character. Decoded as it is, such a batch was UTF-16, which JSON.parse reads slower:
 * on the bench's 1 MiB Jira page (curly quotes here and there) no faster than element by element (4.5 against
 * 4.4 ms) while its JSON calls took 1,000-1,070 fresh pages against 740. Escaped, in process: 3.7-4.0 against
 * 4.4-4.5 ms (a loop of 5 MiB parses in process is slower with batches, ASCII or escaped, for its scavenges; the
 * server's 5 MiB calls over stdio are not). A batch whose escapes cannot
 * stand for its text (one follows a backslash) or would make it a large string ends the batches: the array is
 * read element by element from there, as before.
 */
export class ObjectArrayBatches {
  /** Searched for between elements: undefined until the first element has been read, null when not to batch. */
  private seam: Buffer | null | undefined;
  private lastEnd = -1;

  constructor(private readonly bytes: Buffer) {}

  /** Notes an element read on its own, ending just before `end`. */
  read(end: number): void {
    this.lastEnd = end;
  }

  /** The elements from `at` (where one starts) to the last seam within BATCH_BYTES, and just past them; or undefined. */
  take(at: number): { elements: unknown[]; end: number } | undefined {
    if (this.seam === undefined && this.lastEnd !== -1) this.seam = seamBetween(this.bytes, this.lastEnd, at);
    if (!this.seam) return undefined;
    const brace = this.bytes.lastIndexOf(this.seam, at + BATCH_BYTES);
    if (brace <= at) return undefined; // the element at `at` is bigger than a batch
    // One byte a character, its characters past ASCII (if any) written as escapes.
    const text = asciiEscapedJson(this.bytes, at, brace + 1);
    if (text === undefined) {
      this.seam = null;
      return undefined;
    }
    try {
      return { elements: JSON.parse(`[${text}]`) as unknown[], end: brace + 1 };
    } catch {
      // The seam fell inside an element, and would again; a body that is not JSON fails element by element too.
      this.seam = null;
      return undefined;
    }
  }
}

/** The bytes from the brace closing one element (just before `end`) to the colon after the next one's first key. */
function seamBetween(bytes: Buffer, end: number, next: number): Buffer | null {
  if (bytes[next] !== OPEN_OBJECT) return null;
  const colon = bytes.indexOf(COLON, next);
  return colon === -1 || colon - next > FIRST_KEY_BYTES ? null : bytes.subarray(end - 1, colon + 1);
}
