import { availableParallelism } from 'node:os';
import { StartupError } from '../../core/errors/tool-error.js';

// Apart from workers.ts so that a server of one worker (stdio, and HTTP by default) decides so without loading
// node:cluster and the primary's code: that is start-up time every server would pay for a feature few use.

/** MCP_WORKERS as a number of processes: `auto` is one per core this process may use. */
export function workerCount(value: string, cores = availableParallelism()): number {
  const text = value.trim().toLowerCase();
  if (text === 'auto') return Math.max(1, cores);
  if (!/^[1-9]\d{0,3}$/.test(text))
    throw new StartupError(
      `MCP_WORKERS=${JSON.stringify(value)} is not a number of workers: give a whole number from 1, or "auto" for one per core (${cores} here).`,
    );
  return Number(text);
}
