import { collectYoungGeneration } from '../pipeline/collect-after-big-value.js';
import { freeBytes } from './handled-bodies.js';
import { EveryBytes } from '../pipeline/every-bytes.js';
import { MAPPED_FROM_BYTES, mappedBytes } from './mapped-bytes.js';

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
 * A body that grows past MAPPED_FROM_BYTES moves into one mapping of its own (mapped-bytes.ts) and the rest of
 * it is copied there as it comes: no blocks, no second copy at the end, and its memory leaves with it.
 *
 * A body that declared its length (Content-Length) is copied as it comes into one buffer of that length, its
 * only block, or straight into a mapping when it is big: held once, never concatenated. Should it send more
 * than it declared, what came so far becomes the first pending chunk and the rest is gathered as above.
 */
export class BodyBlocks {
  private readonly blocks: Buffer[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Where the body goes once it is big; its first `total` bytes are the body so far. */
  private mapped: Buffer | undefined;
  /** The buffer of a declared length, while the body fits in it; its first `total` bytes are the body so far. */
  private declared: Buffer | undefined;
  total = 0;

  /**
   * `capacity`: the most the body may take (the read's cap), the room a mapping is made with. `declaredBytes`:
   * the length the body declared, when it did.
   */
  constructor(
    private readonly capacity = MAPPED_FROM_BYTES,
    declaredBytes?: number,
  ) {
    if (declaredBytes === undefined || declaredBytes <= 0) return;
    if (declaredBytes > MAPPED_FROM_BYTES) this.mapped = mappedBytes(declaredBytes);
    else this.declared = Buffer.allocUnsafe(declaredBytes);
  }

  add(chunk: Buffer): void {
    if (this.declared !== undefined) {
      if (this.total + chunk.byteLength <= this.declared.length) {
        chunk.copy(this.declared, this.total);
        this.total += chunk.byteLength;
        return;
      }
      this.pending.push(this.declared.subarray(0, this.total));
      this.pendingBytes = this.total;
      this.declared = undefined;
    }
    if (this.mapped !== undefined) {
      chunk.copy(this.roomFor(chunk.byteLength), this.total);
      this.total += chunk.byteLength;
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    this.total += chunk.byteLength;
    if (this.pendingBytes >= BLOCK_BYTES) this.seal();
    if (this.total > MAPPED_FROM_BYTES) this.moveToMapping();
  }

  /** The body in one Buffer; the blocks are freed as they are copied into it. */
  whole(): Buffer {
    if (this.declared !== undefined) return this.total === this.declared.length ? this.declared : this.declared.subarray(0, this.total);
    if (this.mapped !== undefined) return this.mapped.subarray(0, this.total);
    if (this.blocks.length === 0) return this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.seal();
    const whole = Buffer.allocUnsafe(this.total);
    this.copyBlocksInto(whole);
    collectYoungGeneration();
    return whole;
  }

  /** The blocks, in order, into `target` from its start, each freed once copied. */
  private copyBlocksInto(target: Buffer): void {
    const freeing = new EveryBytes(FREED_EVERY_BYTES, collectYoungGeneration);
    let at = 0;
    for (const block of this.blocks.splice(0)) {
      const copied = block.copy(target, at);
      at += copied;
      freeBytes(block);
      freeing.count(copied);
    }
  }

  private moveToMapping(): void {
    this.seal();
    this.mapped = mappedBytes(this.capacity);
    this.copyBlocksInto(this.mapped);
  }

  /** The mapping, made larger (twice, copied) when `bytes` more would not fit: only with a cap above its size. */
  private roomFor(bytes: number): Buffer {
    let mapped = this.mapped!;
    if (this.total + bytes > mapped.length) {
      const larger = mappedBytes(Math.max(2 * mapped.length, this.total + bytes));
      mapped.copy(larger, 0, 0, this.total);
      freeBytes(mapped);
      this.mapped = mapped = larger;
    }
    return mapped;
  }

  /** The pending chunks as one block: its own memory (Buffer.concat), so it can be freed once copied. */
  private seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }
}
