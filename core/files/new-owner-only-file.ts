import { openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * A new file only its owner can read or write: mode 0600, and `wx` so that a file already at that path (planted
 * there, or left by another process) is never reused. The folder is made once rather than checked before every
 * file (two more file system round trips each time); when it has gone since (a temp-folder cleaner),
 * `remakeFolder` makes it again and the file is opened once more, at the path `at` gives then.
 */
export async function newOwnerOnlyFile(at: () => string | Promise<string>, remakeFolder: () => unknown): Promise<FileHandle> {
  try {
    return await open(await at(), 'wx', 0o600);
  } catch (error) {
    if (!folderGone(error)) throw error;
    await remakeFolder();
    return open(await at(), 'wx', 0o600);
  }
}

/** The same, opened in this tick (no round trip through libuv's thread pool): a descriptor to write at once. */
export async function newOwnerOnlyFileNow(path: string, remakeFolder: () => unknown): Promise<number> {
  try {
    return openSync(path, 'wx', 0o600);
  } catch (error) {
    if (!folderGone(error)) throw error;
    await remakeFolder();
    return openSync(path, 'wx', 0o600);
  }
}

function folderGone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
