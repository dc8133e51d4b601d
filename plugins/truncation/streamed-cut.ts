import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { RawFileWriter } from './raw-response-files.js';
import { CUT_HEAD_CHARS, MAX_TEXT_CHARS, cutFromHead } from './truncate-text.js';

/** What a rendering in pieces came to: the text for the model, or that it must be handled whole. */
export type StreamedCut = { text: string } | { secretSeen: true };

/**
 * A rendering made in pieces (a big value's), handled as the truncate stage handles a whole text, byte for
 * byte, without ever holding it whole: within the limit, the joined text; over it, each piece written to the
 * raw response file (`open` makes it, when the text may be saved) as it is made, and the cut made from the
 * first CUT_HEAD_CHARS characters and the length. The whole text is scrubbed before it is saved and cut; here
 * the pieces are checked in windows that overlap by the longest secret form, and when one is seen (or the
 * scrubber cannot say how long its forms are) nothing is kept: the caller renders and scrubs the whole text.
 */
export async function cutRendering(pieces: Iterable<string>, scrub: Scrub, open: (() => Promise<RawFileWriter | undefined>) | undefined): Promise<StreamedCut> {
  const longest = scrub.longestForm;
  if (longest === undefined) return { secretSeen: true };
  let carry = '';
  const keep = longest - 1;
  // A form within a piece is seen in the piece; one across pieces in the seam: the last `keep` characters before
  // the piece and its first `keep`. (Checking the carry and the piece joined copied every piece once more.)
  const seen = (piece: string): boolean => {
    if (longest === 0) return false;
    const seam = carry + piece.slice(0, keep);
    if (scrub(seam) !== seam || scrub(piece) !== piece) return true;
    carry = piece.length >= keep ? piece.slice(piece.length - keep) : seam.slice(Math.max(0, seam.length - keep));
    return false;
  };
  const iterator = pieces[Symbol.iterator]();
  const first: string[] = [];
  let length = 0;
  while (length <= MAX_TEXT_CHARS) {
    const next = iterator.next();
    if (next.done) return { text: first.join('') };
    if (seen(next.value)) return { secretSeen: true };
    first.push(next.value);
    length += next.value.length;
  }
  const head = first.join('').slice(0, CUT_HEAD_CHARS);
  const file = await open?.();
  for (const piece of first.splice(0)) await file?.write(piece);
  for (let next = iterator.next(); !next.done; next = iterator.next()) {
    if (seen(next.value)) {
      await file?.discard();
      return { secretSeen: true };
    }
    length += next.value.length;
    await file?.write(next.value);
  }
  return { text: cutFromHead(head, length, await file?.close()) };
}
