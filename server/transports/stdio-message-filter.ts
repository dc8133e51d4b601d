import { Transform, type TransformCallback } from 'node:stream';
import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import { INVALID_REQUEST, isJsonRpcMessage } from './json-rpc-shape.js';

/** What the filter answers itself, as a JSON-RPC error response line. */
export type Reply = (line: string) => void;

/**
 * Sits between stdin and the SDK's stdio transport, which silently drops a line that is not JSON or not a
 * JSON-RPC message (the client then waits for an answer forever) and closes the whole server when a message
 * exceeds its buffer. Here every line is checked first, as the transport will check it: malformed JSON is
 * answered -32700 Parse error, a well-formed non-message -32600 Invalid Request (with its id when it has a
 * usable one), a line over `maxBytes` -32600 too, discarded as it arrives; only valid messages go on.
 */
export class StdioMessageFilter extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Discarding the rest of an oversized line until its newline. */
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly reply: Reply,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    for (let newline = rest.indexOf(0x0a); newline !== -1; newline = rest.indexOf(0x0a)) {
      this.collect(rest.subarray(0, newline));
      this.endLine();
      rest = rest.subarray(newline + 1);
    }
    this.collect(rest);
    done();
  }

  private collect(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    this.pendingBytes += piece.length;
    if (this.pendingBytes > this.maxBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.answer(null, ErrorCode.InvalidRequest, `Invalid Request: the message is larger than ${this.maxBytes} bytes.`);
      return;
    }
    this.pending.push(piece);
  }

  private endLine(): void {
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.answer(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    if (isJsonRpcMessage(parsed)) {
      this.push(`${line}\n`);
      return;
    }
    const id = (parsed as { id?: unknown } | null)?.id;
    const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
    // A malformed notification (no id) gets no answer, as JSON-RPC says; anything with a method and an id does.
    const isNotification = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && !('id' in parsed) && 'method' in parsed;
    if (isNotification) return;
    this.answer(usableId, ErrorCode.InvalidRequest, `${INVALID_REQUEST} (batches are not supported over stdio).`);
  }

  private answer(id: string | number | null, code: number, message: string): void {
    this.reply(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }
}
