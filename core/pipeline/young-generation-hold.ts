import { setFlagsFromString } from 'node:v8';
import type { BodyLease } from '../kernel/body-budget.js';
import { BIG_VALUE_BYTES } from './big-value.js';

/** V8's semi-space growth factor when none is given (node --v8-options), put back once no big value is in flight. */
const V8_DEFAULT_GROWTH_FACTOR = 2;

let bigValuesInFlight = 0;

/**
 * The call's body lease, which also keeps V8's young generation at its size while the call holds a big body
 * (more than BIG_VALUE_BYTES read). V8 doubles the young generation (up to 2 x 16 MiB on 64-bit) when much of it
 * survives its collections, which is what parsing a big body does: the parsed value survives. The grown space then
 * stays resident through the render, the spill and the calls after it. Measured on one 16 MiB value spilled and
 * read back (1 client, interleaved runs): the young generation stayed at 16 MiB instead of 32, and the peak over
 * idle fell to +46-64 MiB, against +59-91 without the hold. V8 reads the growth factor each time it
 * would grow the space, so setting it while big values are in flight is enough; it is put back when the last one
 * ends. Nothing is held when the flag cannot be set.
 */
export function holdingYoungGenerationWhenBig(lease: BodyLease): BodyLease {
  let holding = false;
  return {
    get held() {
      return lease.held;
    },
    get textBytes() {
      return lease.textBytes;
    },
    set textBytes(bytes) {
      lease.textBytes = bytes;
    },
    async take(bytes, signal, waiting) {
      await lease.take(bytes, signal, waiting);
      if (holding || lease.held <= BIG_VALUE_BYTES) return;
      holding = true;
      if (bigValuesInFlight++ === 0) setGrowthFactor(1);
    },
    release() {
      lease.release();
      if (!holding) return;
      holding = false;
      if (--bigValuesInFlight === 0) setGrowthFactor(V8_DEFAULT_GROWTH_FACTOR);
    },
  };
}

function setGrowthFactor(factor: number): void {
  try {
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  } catch {
    // Flags frozen by the embedder: the young generation grows as V8 decides; only memory is at stake.
  }
}
