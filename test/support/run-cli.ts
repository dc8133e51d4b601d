import { spawn } from 'node:child_process';
import { ScratchDirs } from '../../server/testing/scratch-dirs.js';
import { CLI_PATH } from './paths.js';
import { isolatedEnv } from './sdk-client.js';
import { everyToolUnlessChosen } from './every-tool.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `dist/cli.js` with arguments, an isolated environment plus `env`, and optional stdin. */
export function runCli(args: readonly string[], options: { env?: Record<string, string>; cwd?: string; stdin?: string } = {}): Promise<CliRun> {
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
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}
