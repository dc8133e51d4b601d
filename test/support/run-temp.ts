import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The temporary folder of one test run: every folder and file the tests make with `os.tmpdir()` goes in it, and
 * it is removed once the run's leak audit has read what it watches there (root-hooks.ts). Left behind, a full
 * run's few hundred folders (servers' raw texts, artifact files, stores) piled up run after run. Children started
 * with `process.env` inherit it; the kit's own servers (isolated environments) remove their folders themselves.
 */
export const RUN_TEMP = mkdtempSync(join(tmpdir(), 'mcp-devtools-test-run-'));
process.env.TMPDIR = RUN_TEMP;
// Under --parallel the main process makes one too but runs no test in it: an empty folder goes when it exits.
process.once('exit', () => {
  try {
    rmdirSync(RUN_TEMP);
  } catch {
    // Not empty (a worker's run, or a leak kept for a look) or already removed.
  }
});

/** Removes the run's temporary folder and everything in it; a failure is said on stderr, not a failed run. */
export function removeRunTemp(): void {
  try {
    rmSync(RUN_TEMP, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    process.stderr.write(`the run's temporary folder ${RUN_TEMP} was not removed: ${(error as Error).message}\n`);
  }
}
