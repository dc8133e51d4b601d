import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../core/logging/logger.js';

const FILE_PATTERN = /^raw-\d+-[0-9a-f]{16}\.txt$/;

/**
 * Full renderings of truncated results, kept on disk for the retention period only: owner-only files in an
 * owner-only folder, deleted by a sweep. Written only when text is actually cut.
 */
export class RawResponseFiles {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly retentionMs: number,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  async start(): Promise<void> {
    await this.ensureDir();
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), Math.min(this.retentionMs, 10 * 60_000));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Saves the text; returns its path, or undefined (logged) when it could not be written. */
  async save(text: string): Promise<string | undefined> {
    const path = join(this.dir, `raw-${this.now()}-${randomBytes(8).toString('hex')}.txt`);
    try {
      try {
        await writeFile(path, text, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        // The folder is made (owner-only) at start-up; only when it has gone since is it made again, rather
        // than checked before every save (two more file system round trips on every truncated call).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await this.ensureDir();
        await writeFile(path, text, { mode: 0o600, flag: 'wx' });
      }
      return path;
    } catch (error) {
      this.logger.warn({ err: error, dir: this.dir }, 'could not save the full text of a truncated result');
      return undefined;
    }
  }

  /** Deletes saved files older than the retention period. */
  async sweep(): Promise<number> {
    let removed = 0;
    try {
      for (const name of await readdir(this.dir)) {
        if (!FILE_PATTERN.test(name)) continue;
        const path = join(this.dir, name);
        const info = await stat(path).catch(() => undefined);
        if (info && this.now() - info.mtimeMs >= this.retentionMs) {
          await unlink(path).catch(() => {});
          removed++;
        }
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'raw response sweep skipped');
    }
    return removed;
  }

  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700).catch(() => {});
  }
}
