/** Characters encoded at a time: at most 3 bytes each (a surrogate pair is 4 bytes for 2), so 8 KiB of them fit 24 KiB. */
const SLICE_CHARS = 8 * 1024;

/**
 * The UTF-8 bytes of `text` in chunks of exactly `size` bytes (the last one shorter; one empty chunk for empty
 * text), the same bytes as `Buffer.from(text, 'utf8')` cut at those offsets, made a slice at a time, so the
 * whole encoding never exists at once. A slice never ends between the two halves of a surrogate pair. `text`
 * may also come as consecutive pieces (a serialization made as it is written): the chunks are those of their
 * concatenation, a pair split between two pieces included.
 */
export function* utf8Chunks(text: string | Iterable<string>, size: number): Generator<Buffer> {
  let chunk = Buffer.allocUnsafe(size);
  let filled = 0;
  let produced = false;
  for (const slice of utf8Slices(typeof text === 'string' ? [text] : text)) {
    const encoded = Buffer.from(slice, 'utf8');
    for (let from = 0; from < encoded.length;) {
      const taken = encoded.copy(chunk, filled, from, Math.min(encoded.length, from + size - filled));
      from += taken;
      filled += taken;
      if (filled === size) {
        yield chunk;
        produced = true;
        chunk = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
  if (filled > 0 || !produced) yield chunk.subarray(0, filled);
}

/** Consecutive pieces as slices of at most SLICE_CHARS characters, a high surrogate ending a piece carried to the next. */
function* utf8Slices(pieces: Iterable<string>): Generator<string> {
  let carried = '';
  for (const piece of pieces) {
    let text: string;
    ({ text, carried } = carryHighSurrogate(carried, piece));
    for (let at = 0; at < text.length;) {
      const end = sliceEnd(text, at, SLICE_CHARS);
      yield text.slice(at, end);
      at = end;
    }
  }
  if (carried !== '') yield carried;
}

/**
 * `carried` (a high surrogate the previous piece ended with, or '') and `piece` joined, less a high surrogate
 * that ends them: that one is carried to the next piece, so that a pair split between two pieces is encoded
 * whole and not as two replacement characters.
 */
export function carryHighSurrogate(carried: string, piece: string): { text: string; carried: string } {
  const text = carried === '' ? piece : carried + piece;
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? { text: text.slice(0, -1), carried: text.slice(-1) } : { text, carried: '' };
}

/** Where a slice of at most `chars` characters from `at` ends: never between the two halves of a surrogate pair. */
export function sliceEnd(text: string, at: number, chars: number): number {
  const end = Math.min(text.length, at + chars);
  const last = text.charCodeAt(end - 1);
  return end < text.length && end - 1 > at && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** A buffer in chunks of `size` bytes (views, not copies); one empty chunk for an empty buffer. */
export function* bufferChunks(bytes: Buffer, size: number): Generator<Buffer> {
  const count = Math.max(1, Math.ceil(bytes.length / size));
  for (let i = 0; i < count; i++) yield bytes.subarray(i * size, (i + 1) * size);
}
