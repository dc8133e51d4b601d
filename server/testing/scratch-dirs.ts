import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The temporary folders a test server runs in (its working directory and HOME, where its raw files, store and
 * artifacts go), removed once it has stopped. A benchmark's server saves a few hundred KB of text a call; left
 * behind, a day of runs on the development machine filled its disk (79 GB under the temporary folder).
 */
export class ScratchDirs {
  private readonly dirs: string[] = [];

  /** A new folder in the system's temporary folder, removed with the others. */
  make(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** Removes them all once `stopping` (the stop of the process that used them) has settled, however it did. */
  async removeAfter(stopping: Promise<unknown>): Promise<void> {
    try {
      await stopping;
    } finally {
      this.remove();
    }
  }

  /** Removes them all, once the process that used them has exited. */
  remove(): void {
    for (const dir of this.dirs.splice(0)) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // A folder that cannot be removed is left to the system's cleaning of its temporary folder.
      }
    }
  }
}
