import { ToolError } from '../errors/tool-error.js';
import type { BodyLease } from '../kernel/body-budget.js';

/**
 * Reads a response body as UTF-8, failing as soon as it exceeds `maxBytes` (checked against Content-Length
 * first, then while reading), so an oversized response never sits whole in memory. Each chunk is taken from the
 * call's share of the in-flight body budget first: when the server holds too much, reading waits.
 */
export async function readBodyCapped(response: Response, maxBytes: number, what: string, lease?: BodyLease, signal?: AbortSignal): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  await readChunksCapped(response, maxBytes, what, lease, signal, (chunk) => parts.push(decoder.decode(chunk, { stream: true })));
  parts.push(decoder.decode());
  return parts.join('');
}

/** The same, keeping the bytes as they came (images, files): nothing is decoded, so nothing is lost. */
export async function readBytesCapped(response: Response, maxBytes: number, what: string, lease?: BodyLease, signal?: AbortSignal): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  await readChunksCapped(response, maxBytes, what, lease, signal, (chunk) => parts.push(chunk));
  return Buffer.concat(parts);
}

async function readChunksCapped(
  response: Response,
  maxBytes: number,
  what: string,
  lease: BodyLease | undefined,
  signal: AbortSignal | undefined,
  take: (chunk: Uint8Array) => void,
): Promise<void> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(what, maxBytes, declared);
  }
  if (response.body === null) return;
  const reader = response.body.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(what, maxBytes);
    }
    if (lease !== undefined) await lease.take(value.byteLength, signal ?? new AbortController().signal);
    take(value);
  }
}

function tooLarge(what: string, maxBytes: number, declared?: number): ToolError {
  const size = declared === undefined ? 'more than that' : `${declared} bytes`;
  return new ToolError(
    'upstream_too_large',
    `${what} is larger than MCP_MAX_RESPONSE_BYTES (${maxBytes} bytes; it sent ${size}). Ask for less: a smaller page, fewer fields, or a narrower query.`,
  );
}
