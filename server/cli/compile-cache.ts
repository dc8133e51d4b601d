import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `module.enableCompileCache`, which Node has from 22.1 on (absent from Node 20's types and runtime). */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/**
 * Turns on Node's on-disk compile cache for the modules loaded from now on, where this Node has it; does
 * nothing elsewhere. The folder: NODE_COMPILE_CACHE when set (Node's own setting, and NODE_DISABLE_COMPILE_CACHE
 * turns it off), else mcp-devtools/ under XDG_CACHE_HOME when set, else under the OS temporary folder. Node keys
 * entries by file content and its own version, so a new build or a new Node never reads stale code. Returns the
 * folder in use, or undefined when nothing was enabled.
 */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const enable = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return undefined;
  const folder = env.NODE_COMPILE_CACHE || join(env.XDG_CACHE_HOME || tmpdir(), 'mcp-devtools', 'compile-cache');
  try {
    return enable(folder).directory;
  } catch {
    // A folder that cannot be made (read-only file system): the server starts as it would without a cache.
    return undefined;
  }
}
