import type { IncomingMessage } from 'node:http';

export type BodyOutcome = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** Reads a JSON-RPC request body, refusing oversized ones as they arrive and malformed JSON with -32700. */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge(maxBytes, request);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) return tooLarge(maxBytes, request);
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { ok: false, status: 400, code: -32700, message: `Parse error: ${(error as Error).message}` };
  }
}

function tooLarge(maxBytes: number, request: IncomingMessage): BodyOutcome {
  request.resume(); // drain, so the connection can carry the answer
  return { ok: false, status: 413, code: -32600, message: `Request body larger than ${maxBytes} bytes.` };
}
