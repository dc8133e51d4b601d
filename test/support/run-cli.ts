import { spawn } from 'node:child_process';
import { ScratchDirs } from '../../server/testing/scratch-dirs.js';
import { endOfLifeNotice } from '../../server/cli/runtime-support.js';
import { CLI_PATH } from './paths.js';
import { isolatedEnv } from './sdk-client.js';
import { everyToolUnlessChosen } from './every-tool.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The line every command writes on stderr when this Node.js is past end of life (Node 20 here): test/e2e/runtime.test.ts
 * holds it; the other tests read what a command says besides it.
 */
const RUNTIME_WARNING = ((notice) => (notice === undefined ? undefined : `warning: ${notice}\n`))(endOfLifeNotice());

/** What a command wrote on stderr besides the runtime notice. */
export const withoutRuntimeNotice = (stderr: string): string => (RUNTIME_WARNING === undefined ? stderr : stderr.split(RUNTIME_WARNING).join(''));

/**
 * Runs `dist/cli.js` with arguments, an isolated environment plus `env`, and optional stdin. The runtime notice is
 * taken out of stderr unless `runtimeNotice` keeps it.
 */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: string; runtimeNotice?: 'keep' } = {},
): Promise<CliRun> {
  const scratch = new ScratchDirs();
  const cwd = options.cwd ?? scratch.make('mcp-devtools-cli-');
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd,
    env: isolatedEnv(everyToolUnlessChosen(options.env, args), cwd, scratch),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.once('close', () => scratch.remove());
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      const kept = options.runtimeNotice === 'keep' ? stderr : withoutRuntimeNotice(stderr);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: kept });
    });
  });
}
