import { MAPPED_FROM_BYTES } from '../../core/http/mapped-bytes.js';

/**
 * Bytes of the block freed at start-up: glibc then keeps up to twice this of freed heap before it gives memory
 * back to the system, room for the blocks and the whole of a body up to this size. A body larger than this is
 * read into a mapping of its own instead (core/http/mapped-bytes.ts), which goes back to the system when freed.
 */
export const MALLOC_KEPT_BLOCK_BYTES = MAPPED_FROM_BYTES;

/**
 * Lets the process keep the malloc heap a big call grew, rather than hand it back and fault it in again on the
 * next one. glibc gives the top of its heap back to the system once more than its trim threshold is free
 * there; that threshold starts at 128 KiB and is raised to twice the largest block it has unmapped (mallopt(3),
 * "dynamic mmap threshold"). A 5 MiB Jira page grows the heap by about 12.6 MiB (the network chunks and
 * buffers up to the body's size), so with the threshold that its own 5 MiB body sets (10 MiB),
 * every such call gave the 12.6 MiB back at its end and took it again: 3,200 fresh pages a call. A fresh page
 * costs 15-18 us on a virtual machine whose host takes back freed memory (this one): 50 ms of a 140 ms call.
 *
 * Node.js has no mallopt, so the threshold is raised the way glibc raises it: an ArrayBuffer of this size is
 * mapped on its own (calloc, not touched, so it costs no memory) and unmapped when the first young collection
 * finds it dead, early in start-up. Elsewhere than glibc this is one short-lived allocation that does nothing; an
 * operator who sets MALLOC_TRIM_THRESHOLD_ or MALLOC_MMAP_THRESHOLD_ turns glibc's adjustment, and so this, off.
 * The cost: up to 16 MiB of freed heap kept, and a few MiB more at the peak of a 16 MiB spilled value, whose
 * smaller allocations now come from the heap rather than mappings of their own (docs/benchmarks.md, round ten).
 */
export function keepMallocHeapOfBigCalls(): number {
  // Garbage at once: run once at start-up, never optimized away.
  return new ArrayBuffer(MALLOC_KEPT_BLOCK_BYTES).byteLength;
}
