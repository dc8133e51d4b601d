// How many processes each test file starts (issue 50: `npm test`'s time on 2 cores goes mostly to the servers it
// starts). Opt-in, never loaded by `npm test`: `MCP_TEST_SPAWN_LOG=FILE mocha --require
// build/test/support/spawn-log.js ...` appends a line to FILE for every child process the run starts: the test
// file that started it, the child_process function and the command. Load-independent, unlike the run's time.
import childProcess from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { promisify } from 'node:util';

const LOG = process.env.MCP_TEST_SPAWN_LOG;
const STARTERS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const;

/** The test file whose code is on the stack (async frames included), else the one whose test runs now. */
let running = 'outside any test';
function testFile(): string {
  const frames = new Error().stack ?? '';
  return /build\/test\/([^\s:)]+\.test\.js)/.exec(frames)?.[1] ?? running;
}

if (LOG !== undefined && LOG !== '') {
  Error.stackTraceLimit = Math.max(Error.stackTraceLimit, 80);
  const functions = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of STARTERS) {
    const start = functions[name]!;
    const logged = (args: unknown[]): void => {
      const argv = [args[0], ...(Array.isArray(args[1]) ? args[1].slice(0, 2) : [])].map(String).join(' ');
      appendFileSync(LOG, `${testFile()}\t${name}\t${argv.replace(/\s+/g, ' ').slice(0, 200)}\n`);
    };
    const counted = function (this: unknown, ...args: unknown[]) {
      logged(args);
      return start.apply(this, args);
    };
    // promisify(exec) and promisify(execFile) resolve { stdout, stderr } through their own promisified form.
    const promised = (start as unknown as Record<symbol, ((...args: unknown[]) => unknown) | undefined>)[promisify.custom];
    if (promised !== undefined)
      Object.defineProperty(counted, promisify.custom, {
        value: (...args: unknown[]) => {
          logged(args);
          return promised(...args);
        },
      });
    functions[name] = counted;
  }
  // Test files import { spawn } from 'node:child_process': their bindings follow the module object from here on.
  syncBuiltinESMExports();
}

export const mochaHooks = {
  beforeEach(this: { currentTest?: { file?: string } }): void {
    running = (this.currentTest?.file ?? running).replace(/.*build\/test\//, '');
  },
};
