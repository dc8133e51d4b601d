import { setFlagsFromString } from 'node:v8';
import type { BodyLease } from '../kernel/body-budget.js';
import { BIG_VALUE_BYTES } from './big-value.js';

/** V8's semi-space growth factor when none is given (node --v8-options), put back once no big value is in flight. */
const V8_DEFAULT_GROWTH_FACTOR = 2;

/** Reasons the young generation is held now: calls holding a big body, and a big artifact being read back. */
let holds = 0;

/** How long the young generation stays held after the last read of a big artifact. */
export const READ_BACK_HOLD_MS = 2000;
let readBackUntil = 0;
let readBackTimer: NodeJS.Timeout | undefined;

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
      hold();
    },
    release() {
      lease.release();
      if (!holding) return;
      holding = false;
      unhold();
    },
  };
}

/**
 * Keeps the young generation at its size while a big artifact is read back: from now until `ms` after the last
 * such read. A client reads a 16 MiB artifact back in hundreds of small calls, and V8 grows the young generation
 * once enough has survived its collections since it last grew, however little each time: over the read-back of
 * one 16 MiB value it went from 8 to 29.5 MiB, and the read-back set the server's peak (+56-65 MiB over idle,
 * against +54-60 for the call itself). Held, it stayed at 8 MiB and the read-back's peak was +35-52 MiB (4 runs).
 */
export function holdYoungGenerationForReadBack(ms = READ_BACK_HOLD_MS): void {
  readBackUntil = performance.now() + ms;
  if (readBackTimer !== undefined) return;
  hold();
  const check = (): void => {
    const left = readBackUntil - performance.now();
    if (left > 0) {
      readBackTimer = setTimeout(check, left).unref();
      return;
    }
    readBackTimer = undefined;
    unhold();
  };
  readBackTimer = setTimeout(check, ms).unref();
}

function hold(): void {
  if (holds++ === 0) setGrowthFactor(1);
}

function unhold(): void {
  if (--holds === 0) setGrowthFactor(V8_DEFAULT_GROWTH_FACTOR);
}

function setGrowthFactor(factor: number): void {
  try {
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  } catch {
    // Flags frozen by the embedder: the young generation grows as V8 decides; only memory is at stake.
  }
}
