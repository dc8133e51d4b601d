import { collectYoungGeneration } from '../pipeline/collect-after-big-value.js';
import { freeBytes } from './handled-bodies.js';
import { EveryBytes } from '../pipeline/every-bytes.js';

/** Chunks are gathered into blocks of about this size (copied once, the chunks then garbage). */
export const BLOCK_BYTES = 1024 * 1024;

/** Bytes copied out of blocks between two young collections that free the blocks already copied. */
const FREED_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * A body of unknown length (chunked transfer, as vendors send big pages) gathered as it comes. Keeping every
 * network chunk until the end and concatenating them then held a big body twice at the end of the read, and
 * the chunks, by then in V8's old generation, stayed resident beside the whole until the next full collection,
 * at the peak of the parse: measured on a 16 MiB page, 40 MiB resident over idle when the parse began. Here the
 * chunks are copied into blocks of BLOCK_BYTES as they come (the read's young collections free the chunks), and
 * the whole is made from the blocks one at a time, each block freed once copied (detached, see handled-bodies.ts).
 */
export class BodyBlocks {
  private readonly blocks: Buffer[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  total = 0;

  add(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    this.total += chunk.byteLength;
    if (this.pendingBytes >= BLOCK_BYTES) this.seal();
  }

  /** The body in one Buffer; the blocks are freed as they are copied into it. */
  whole(): Buffer {
    if (this.blocks.length === 0) return this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.seal();
    const whole = Buffer.allocUnsafe(this.total);
    const freeing = new EveryBytes(FREED_EVERY_BYTES, collectYoungGeneration);
    let at = 0;
    for (const block of this.blocks.splice(0)) {
      const copied = block.copy(whole, at);
      at += copied;
      freeBytes(block);
      freeing.count(copied);
    }
    collectYoungGeneration();
    return whole;
  }

  /** The pending chunks as one block: its own memory (Buffer.concat), so it can be freed once copied. */
  private seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }
}
