import type { ArtifactChunk, ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ToolError } from '../../core/errors/tool-error.js';
import type { Principal } from '../../core/identity/principal.js';

/**
 * Most characters the JSON-escaped text of one utf8 read may take: the size of a base64 chunk, so an answer
 * stays under the 40,000-character truncation limit even when the text is full of escapes (`\n`, `\u001b`).
 */
export const TEXT_CHUNK_MAX_JSON_CHARS = 32 * 1024;

/** A UTF-8 continuation byte (10xxxxxx): never the first byte of a character. */
const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

/**
 * One chunk of an artifact as text: the stored chunk holding `offset`, moved forward past a character that
 * starts before it, completed with the few bytes of a character cut at the chunk's end, and shortened when
 * its escaped form would not fit the answer. `offset` and `nextOffset` stay byte offsets, and every
 * `nextOffset` falls on a character boundary, so following them reads the text whole and in order.
 */
export async function readTextChunk(store: ArtifactStore, owner: Principal, artifactId: string, offset: number, maxBytes: number): Promise<ArtifactChunk> {
  const first = await store.read(owner, artifactId, offset, maxBytes);
  let bytes = Buffer.from(first.data, 'base64');
  let end = first.nextOffset;
  // A character cut by the stored chunk's end: its last bytes are at the start of the next chunk.
  for (let missing = missingTailBytes(bytes); missing > 0 && end < first.bytes; missing = missingTailBytes(bytes)) {
    const next = await store.read(owner, artifactId, end, missing);
    bytes = Buffer.concat([bytes, Buffer.from(next.data, 'base64')]);
    end = next.nextOffset;
  }
  // Past the start, continuation bytes at the offset end a character that began before it.
  let skip = 0;
  while (offset > 0 && skip < bytes.length && skip < 3 && isContinuation(bytes[skip]!)) skip++;
  const text = decodeUtf8(bytes.subarray(skip), first, offset + skip);
  const kept = fittingPrefix(text, TEXT_CHUNK_MAX_JSON_CHARS);
  const start = offset + skip;
  const nextOffset = kept.length === text.length ? end : start + Buffer.byteLength(kept, 'utf8');
  return { ...first, offset: start, nextOffset, eof: nextOffset >= first.bytes, data: kept };
}

/** How many bytes the last character of `bytes` lacks (0 when it is whole or the bytes are not UTF-8). */
function missingTailBytes(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if (isContinuation(byte)) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return Math.max(0, length - back);
  }
  return 0;
}

function decodeUtf8(bytes: Buffer, chunk: ArtifactChunk, at: number): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError(
      'unsupported_content',
      `Artifact ${chunk.artifactId} (${chunk.mimeType}) is not UTF-8 text in the bytes from offset ${at}: read it with encoding "base64".`,
    );
  }
}

/** The longest prefix of `text` whose JSON string form fits in `maxChars`, never splitting a surrogate pair. */
function fittingPrefix(text: string, maxChars: number): string {
  if (JSON.stringify(text).length <= maxChars) return text;
  let used = 2; // the quotes
  let i = 0;
  while (i < text.length) {
    const width = text.codePointAt(i)! > 0xffff ? 2 : 1;
    const cost = JSON.stringify(text.slice(i, i + width)).length - 2;
    if (used + cost > maxChars) break;
    used += cost;
    i += width;
  }
  return text.slice(0, i);
}
