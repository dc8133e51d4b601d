import { v8Collector, type V8Gc } from '../../core/pipeline/collect-after-big-value.js';

/** V8's `gc()`, as the server obtains it (no flag on mocha's command line); a test that needs it fails without it. */
export function exposedGc(): V8Gc {
  const gc = v8Collector();
  if (gc === null) throw new Error('V8 gave no gc() in this process: the test measures collections and needs it');
  return gc;
}
