/**
 * Bytes of a big body, in memory of their own that goes back to the system as soon as it is freed (freeBytes),
 * whatever the allocator did before. glibc serves an allocation from its heap, not a mapping of its own, when
 * it is smaller than a threshold that it raises, up to 32 MiB, each time it unmaps a block (mallopt(3); the
 * server raises it to 8 MiB at start-up on purpose, server/cli/malloc-heap.ts). A body's blocks then came from
 * the heap, and once copied and freed the heap kept their memory beside the whole body and its parsed value:
 * a 16 MiB body read chunked left about 16 MiB of freed heap resident through the parse. An allocation over
 * 32 MiB is always a mapping of its own, and only the pages written become resident: a body that outgrows the
 * heap the server keeps is read into one, at the size the body reaches.
 */
export const ALWAYS_MAPPED_BYTES = 32 * 1024 * 1024 + 64 * 1024;

/** The ArrayBuffers made here: each has one user, the body read into it, which may free it whole. */
const mapped = new WeakSet<ArrayBufferLike>();

/** Room for `capacity` bytes (at least ALWAYS_MAPPED_BYTES), not yet written: only what is written costs memory. */
export function mappedBytes(capacity: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Math.max(capacity, ALWAYS_MAPPED_BYTES));
  mapped.add(bytes.buffer);
  return bytes;
}

/** Whether `bytes` start a mapping of mappedBytes: freeing them frees the whole of it. */
export function startsMappedBytes(bytes: Buffer): boolean {
  return bytes.byteOffset === 0 && mapped.has(bytes.buffer);
}

/**
 * Bodies longer than this are read into mappedBytes: the malloc heap the server keeps for its calls (it frees
 * a block of this size at start-up, server/cli/malloc-heap.ts). Up to here, a body's memory comes from that
 * heap and is reused by the next call without fresh pages; past it, the heap would not give it back.
 */
export const MAPPED_FROM_BYTES = 8 * 1024 * 1024;
