import { spawn, spawnSync } from 'node:child_process';
import { ScratchDirs } from '../../server/testing/scratch-dirs.js';
import { CLI_PATH } from './paths.js';
import { isolatedEnv } from './sdk-client.js';
import { everyToolUnlessChosen } from './every-tool.js';

export const SCRIPT_MISSING =
  "These tests need a pseudo-terminal: util-linux's `script` command (Debian's bsdutils, an essential package: every Debian system has it).";

export interface TerminalRun {
  code: number | null;
  /** What the terminal showed (stdout and stderr together, as a person sees them), with `\r\n` as `\n`. */
  output: string;
}

export interface TerminalOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Typed once `output` contains this text (a key such as `\x04`, Ctrl+D). */
  typeWhen?: { seen: string; keys: string };
  timeoutMs?: number;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `dist/cli.js` with arguments on a pseudo-terminal, as a person at a shell would (stdin, stdout and stderr
 * are all the terminal): util-linux's `script -qec`, with the same isolated environment as runCli.
 */
export function runInTerminal(args: readonly string[], options: TerminalOptions = {}): Promise<TerminalRun> {
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).error !== undefined) throw new Error(SCRIPT_MISSING);
  const scratch = new ScratchDirs();
  const cwd = options.cwd ?? scratch.make('mcp-devtools-tty-');
  const command = [process.execPath, CLI_PATH, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd,
    env: { ...isolatedEnv(everyToolUnlessChosen(options.env, args), cwd, scratch), TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let typed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (options.typeWhen !== undefined && !typed && output.includes(options.typeWhen.seen)) {
      typed = true;
      child.stdin.write(options.typeWhen.keys);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      scratch.remove();
      resolve({ code, output: output.replace(/\r\n/g, '\n') });
    });
  });
}
