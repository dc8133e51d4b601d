import type { Readable } from 'node:stream';
import { ToolError } from '../errors/tool-error.js';
import type { BodyLease } from '../plugin/body-lease.js';
import { BodyBytes } from './body-bytes.js';
import type { RequestDeadline } from './request-deadline.js';

/** A response body as the pooled client hands it over: its headers and a byte stream. */
export interface BodySource {
  headers: Headers;
  body: Readable;
}

/**
 * Reads a response body as UTF-8, failing as soon as it exceeds `maxBytes` (checked against Content-Length
 * first, then while reading), so an oversized response never sits whole in memory. Each chunk is taken from the
 * call's share of the in-flight body budget first: when the server holds too much, reading waits.
 * The text is decoded once from the whole bytes (not chunk by chunk into pieces joined afterwards): one string,
 * the form JSON.parse needs, and the bytes are dropped as soon as it is made.
 */
export async function readBodyCapped(response: BodySource, maxBytes: number, what: string, lease?: BodyLease, deadline?: RequestDeadline): Promise<string> {
  return decodeBody(await readBytesCapped(response, maxBytes, what, lease, deadline));
}

/** A body's text: its UTF-8 after any byte order mark, which is not text (fetch's text() and TextDecoder drop it too). */
export function decodeBody(bytes: Buffer): string {
  return bytes.toString('utf8', bomLength(bytes));
}

/** 3 when the bytes start with a UTF-8 byte order mark, else 0. */
export function bomLength(bytes: Buffer): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Told the bytes read so far after each network chunk, with the size the body declared (Content-Length), if any. */
export type BytesRead = (read: number, declared?: number) => void;

/**
 * The same, keeping the bytes as they came (images, files): nothing is decoded, so nothing is lost. While a
 * chunk waits for the budget, the request's `deadline` stands still: the wait is ours, not the vendor's.
 */
export async function readBytesCapped(
  response: BodySource,
  maxBytes: number,
  what: string,
  lease?: BodyLease,
  deadline?: RequestDeadline,
  onRead?: BytesRead,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? undefined);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardBody(response);
    throw tooLarge(what, maxBytes, declared);
  }
  // A body that declared its length is copied into one buffer of that length as it comes, each network chunk
  // garbage at once: held once, never as chunks and a concatenation of them side by side.
  const body = new BodyBytes(Number.isFinite(declared) && declared > 0 ? declared : undefined);
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (body.total + chunk.byteLength > maxBytes) throw tooLarge(what, maxBytes);
      if (lease !== undefined) await lease.take(chunk.byteLength, deadline?.signal ?? new AbortController().signal, deadline);
      body.add(chunk);
      onRead?.(body.total, Number.isFinite(declared) && declared > 0 ? declared : undefined);
    }
  } catch (error) {
    discardBody(response);
    throw error;
  }
  return body.whole();
}

/** Drops a body not read (or not read to its end): the stream is destroyed, the connection not reused. */
export function discardBody(response: BodySource): void {
  if (response.body.destroyed) return;
  // undici reports a destroyed body as an AbortError event: expected here, so it is not an uncaught error.
  response.body.on('error', () => {});
  response.body.destroy();
}

function tooLarge(what: string, maxBytes: number, declared?: number): ToolError {
  const size = declared === undefined ? 'more than that' : `${declared} bytes`;
  return new ToolError(
    'upstream_too_large',
    `${what} is larger than MCP_MAX_RESPONSE_BYTES (${maxBytes} bytes; it sent ${size}). Ask for less: a smaller page, fewer fields, or a narrower query.`,
  );
}
