import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc`, as `node --expose-gc` gives it: a full collection, or a young one with `{ type: 'minor' }`. */
export type ExposedGc = (options?: { type: 'minor' | 'major' }) => void;

/** `gc()`, as `node --expose-gc` gives it, without needing the flag on mocha's command line. */
export function exposedGc(): ExposedGc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as ExposedGc;
}
