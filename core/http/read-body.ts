import { ToolError } from '../errors/tool-error.js';
import type { BodyLease } from '../kernel/body-budget.js';

/**
 * Reads a response body as UTF-8, failing as soon as it exceeds `maxBytes` (checked against Content-Length
 * first, then while reading), so an oversized response never sits whole in memory. Each chunk is taken from the
 * call's share of the in-flight body budget first: when the server holds too much, reading waits.
 */
export async function readBodyCapped(response: Response, maxBytes: number, what: string, lease?: BodyLease, signal?: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(what, maxBytes, declared);
  }
  if (response.body === null) return '';
  const decoder = new TextDecoder('utf-8');
  const reader = response.body.getReader();
  const parts: string[] = [];
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
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

function tooLarge(what: string, maxBytes: number, declared?: number): ToolError {
  const size = declared === undefined ? 'more than that' : `${declared} bytes`;
  return new ToolError('upstream_too_large', `${what} is larger than MCP_MAX_RESPONSE_BYTES (${maxBytes} bytes; it sent ${size}). Ask for less: a smaller page, fewer fields, or a narrower query.`);
}
