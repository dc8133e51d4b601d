import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection soon after a call with a big value ends. Such a call leaves its body bytes, its
 * parsed value and the garbage of its render and serialization in the old generation, which V8 collects only
 * when that generation reaches a limit set from the size it had before the call; until then the calls that
 * follow (a client reading the spilled artifact back, 24 KiB at a time) pile their own garbage on top.
 * Measured on a 16 MiB value spilled and read back whole over HTTP: the resident peak grew by 40 MiB during
 * the read-back; with a collection once the call has ended, it stays at the call's own peak.
 *
 * Node.js exposes no collection to programs; `--expose-gc` set now applies to contexts made from now on, so a
 * fresh context hands over its `gc`. If that fails, nothing is collected early: only memory is at stake.
 * Forced collections take at most a tenth of the time (a collection of a large heap, with many big calls at
 * once, can take long): the next one waits at least ten times as long as the last one took.
 */
export function collectAfterBigValue(): void {
  processCollector.request();
}

/**
 * A young-generation collection now (a scavenge: about a millisecond when little survives). Reading a big body
 * copies each network chunk into one buffer; the chunks are garbage at once, but each holds its own 64 KiB
 * outside the heap, freed only when a collection finds it dead, and reading allocates too little on the heap to
 * start one: the chunks pile up until V8 counts enough memory outside the heap to collect. They are young, so a
 * scavenge frees them. Nothing is done when no collector can be had.
 */
export function collectYoungGeneration(): void {
  // An options object: a young collection in every V8 (older ones read any truthy argument as `minor`).
  v8Collector()?.({ type: 'minor' });
}

/** Requests coalesced (one pending at a time) and spaced out; one per process, a fresh one in tests. */
export class ThrottledCollector {
  private pending = false;
  private notBefore = 0;

  request(): void {
    if (this.pending || performance.now() < this.notBefore) return;
    const gc = v8Collector();
    if (gc === null) return;
    this.pending = true;
    // Once the call's answer is on its way: its last locals are then unreachable.
    setTimeout(() => {
      const started = performance.now();
      try {
        gc();
      } finally {
        this.notBefore = started + (performance.now() - started) * 11;
        this.pending = false;
      }
    }, 0).unref();
  }
}

const processCollector = new ThrottledCollector();
let gcFunction: V8Gc | null | undefined;

/** V8's `gc`, as `node --expose-gc` gives it: a full collection, or a young one with `{ type: 'minor' }`. */
export type V8Gc = (options?: { type: 'minor' | 'major' }) => void;

/** V8's `gc` without the flag on the command line (see collectAfterBigValue), or null when none can be had. */
export function v8Collector(): V8Gc | null {
  if (gcFunction === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
      gcFunction = typeof gc === 'function' ? (gc as V8Gc) : null;
    } catch {
      gcFunction = null;
    }
  }
  return gcFunction;
}
