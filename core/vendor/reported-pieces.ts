import { noProgress, type ProgressReporter } from '../plugin/tool-context.js';

/** Characters per piece handed to the store: a report every ten or so stored chunks. */
const PIECE_CHARS = 256 * 1024;

/**
 * Text on its way into an artifact, as consecutive pieces that report the UTF-8 bytes handed over so far as
 * the store pulls each one (ArtifactStore.save takes text in pieces, and pulls the next only once it has
 * stored what came before): the bytes written of a spill or a saved log, without the store knowing of
 * progress. `total` is the text's size when it is one string; a serialization made as it is stored has none.
 * Without a reporter (the client asked for no progress) the text is handed over unchanged.
 */
export function reportedPieces(text: string | Iterable<string>, progress: ProgressReporter, message: string): string | Iterable<string> {
  if (progress === noProgress) return text;
  const total = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : undefined;
  const pieces = typeof text === 'string' ? slices(text) : text;
  return (function* (): Generator<string> {
    let written = 0;
    progress(0, total, message);
    for (const piece of pieces) {
      yield piece;
      written += Buffer.byteLength(piece, 'utf8');
      progress(written, total, message);
    }
  })();
}

/** A string in slices of PIECE_CHARS characters (a surrogate pair split between two is joined again by the store). */
function* slices(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += PIECE_CHARS) yield text.slice(at, at + PIECE_CHARS);
}
