import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BUNDLE_DIR, REPO_ROOT } from './paths.js';

const run = promisify(execFile);

/**
 * The clone as `npm pack` sees it after `npm run build`, made from what the tests built: package.json, the
 * README and the licence as committed, and this run's bundle (build/dist, the same rollup configuration) as
 * dist/. The tests pack this folder rather than the clone, whose dist/ they never build (a server may be
 * serving it) and which may be stale or missing.
 */
export function stagePackage(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-devtools-package-'));
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(REPO_ROOT, file), join(folder, file));
  cpSync(BUNDLE_DIR, join(folder, 'dist'), { recursive: true });
  return folder;
}

/** `npm pack --dry-run` of a staged package: the tarball's name and the paths of the files it would hold. */
export async function packedFiles(folder: string): Promise<{ filename: string; files: string[] }> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { filename: packed!.filename, files: packed!.files.map((f) => f.path) };
}

/** `npm pack` of a staged package into `destination`: the tarball's path. */
export async function packTarball(folder: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--pack-destination', destination, '--ignore-scripts'], { cwd: folder });
  return join(destination, stdout.trim().split('\n').at(-1)!);
}
