import { watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

export interface WatchedFileOptions {
  /** Called with the new content each time it differs from the last content seen. */
  onChange(text: string): void | Promise<void>;
  /** Called when the file cannot be read (removed, permissions); the caller keeps what it has. */
  onReadError(error: Error): void;
  /** Stat polling interval, the fallback for file systems without change events (default 2 s). */
  pollMs?: number;
}

const DEBOUNCE_MS = 50;

/**
 * Follows a configuration file that operators edit in place, replace by rename (editors, `kubectl` config
 * maps swapping a symlink) or over NFS: change events on its folder for speed, stat polling as the safety net,
 * and a content comparison so that a touch without a change does nothing.
 */
export class WatchedFile {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> = Promise.resolve();
  private unreadable = false;
  private readonly poll = (): void => this.schedule();

  constructor(
    readonly path: string,
    private lastText: string,
    private readonly options: WatchedFileOptions,
  ) {}

  start(): void {
    const name = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name || changed.startsWith('..')) this.schedule();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No change events here (some network file systems): polling alone will notice.
    }
    watchFile(this.path, { interval: this.options.pollMs ?? 2000, persistent: false }, this.poll);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    unwatchFile(this.path, this.poll);
  }

  /** Reads the file now and reports a change; resolves when any reload it triggers has finished. */
  check(): Promise<void> {
    this.checking = this.checking
      .then(async () => {
        let text: string;
        try {
          text = await readFile(this.path, 'utf8');
        } catch (error) {
          // Reported once, not at every poll, until the file can be read again.
          if (!this.unreadable) this.options.onReadError(error as Error);
          this.unreadable = true;
          return;
        }
        // After a read error the consumer may have dropped what it had (fail closed): the same text is news again.
        const recovered = this.unreadable;
        this.unreadable = false;
        if (text === this.lastText && !recovered) return;
        this.lastText = text;
        await this.options.onChange(text);
      })
      .catch(() => {}); // the consumer handles its own errors; the chain must survive them
    return this.checking;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), DEBOUNCE_MS);
    this.timer.unref();
  }
}
