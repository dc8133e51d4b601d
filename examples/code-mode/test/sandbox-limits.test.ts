import vm from 'node:vm';
import { expect } from 'chai';
import type { ProgramRun } from '../src/harness/code-mode-harness.js';
import { FORBIDDEN_GLOBALS } from '../src/harness/sandbox.js';
import { ProgramError, ProgramTypeError, SandboxTimeoutError, SandboxViolationError } from '../src/harness/sandbox-errors.js';
import { failingJobsTask } from '../src/tasks/failing-jobs-task.js';
import { useHarness } from './support/harness-session.js';

/** What a run rejected with (fails the test if it succeeded). */
async function failure(run: Promise<ProgramRun>): Promise<Error> {
  try {
    const result = await run;
    throw new Error(`the program was expected to be stopped, but finished: ${JSON.stringify(result)}`);
  } catch (error) {
    return error as Error;
  }
}

const LIMITS = { syncTimeoutMs: 300, deadlineMs: 3_000 };
const LIST_RUNS = "await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', perPage: 1, jq: 'total_count' });";

describe('the sandbox: limits and the only door out', () => {
  const session = useHarness([failingJobsTask]);
  const run = (source: string): Promise<ProgramRun> => session.harness.run(source, LIMITS);
  /** Plain JavaScript, past the type check: what the sandbox itself stops. */
  const script = (js: string): Promise<ProgramRun> => session.harness.runScript(js, LIMITS);

  describe('time', () => {
    it('stops a loop that never yields, with an error that names the limit', async () => {
      const error = await failure(run("console.log('before');\nfor (;;) {}"));
      expect(error).to.be.instanceOf(SandboxTimeoutError);
      expect(error).to.include({ limit: 'sync', ms: 300, printed: 'before' });
      expect(error.message).to.contain('ran 300 ms without yielding (an endless loop?)');
    });

    it('stops an endless loop of awaits, which never gives the harness a turn', async () => {
      const error = await failure(run('for (;;) await null;'));
      expect(error).to.be.instanceOf(SandboxTimeoutError).and.include({ limit: 'sync' });
    });

    it('stops a loop that starts after a tool call returned', async () => {
      const error = await failure(run(`${LIST_RUNS}\nconsole.log('listed');\nwhile (true) {}`));
      expect(error).to.be.instanceOf(SandboxTimeoutError).and.include({ limit: 'sync', printed: 'listed' });
    });

    it('stops a program that waits for ever, at the deadline', async () => {
      const error = await failure(run('await new Promise(() => {});'));
      expect(error).to.be.instanceOf(SandboxTimeoutError).and.include({ limit: 'deadline', ms: 3_000 });
      expect(error.message).to.contain('did not finish within its deadline of 3000 ms');
    });
  });

  describe('what is not there', () => {
    it('refuses process, require, fetch and timers at type-check time, naming them', async () => {
      const error = await failure(run("process.exit(1);\nrequire('node:fs');\nawait fetch('http://127.0.0.1');\nsetTimeout(() => {}, 1);"));
      expect(error).to.be.instanceOf(ProgramTypeError);
      const diagnostics = (error as ProgramTypeError).diagnostics;
      expect(diagnostics.map((d) => /Cannot find name '(\w+)'/.exec(d)?.[1])).to.deep.equal(['process', 'require', 'fetch', 'setTimeout']);
      expect(diagnostics[0]).to.match(/^program\.ts:1:1 /);
    });

    for (const [what, body] of [
      ['process', 'g.process.exit(1);'],
      ['require', "g.require('node:child_process');"],
      ['Buffer', "g.Buffer.from('x');"],
      ['setTimeout', 'g.setTimeout(() => {}, 1);'],
    ] as const) {
      it(`stops a program that reaches for ${what} past the type check, even when it catches the error`, async () => {
        const error = await failure(run(`const g = globalThis as any;\ntry { ${body} } catch { console.log('caught'); }\nconsole.log('went on');`));
        expect(error).to.be.instanceOf(SandboxViolationError).and.include({ what });
        expect(error.message).to.contain(`it used ${what}, which the sandbox does not have. Its only way out is tools.<name>(args).`);
      });
    }

    it('stops a program that tries the network, before any request leaves', async () => {
      const error = await failure(run(`const g = globalThis as any;\nawait g.fetch('${session.world.mock.url}/repos/octo-org/octo-repo/actions/runs');`));
      expect(error).to.be.instanceOf(SandboxViolationError).and.include({ what: 'fetch' });
      expect(session.world.mock.requests).to.deep.equal([]);
    });

    it('refuses import() and import.meta: at type-check time, and in the sandbox before running anything', async () => {
      const typed = await failure(run("const fs = await import('node:fs');"));
      expect(typed).to.be.instanceOf(ProgramTypeError);
      expect(typed.message).to.contain("program.ts:1:25 TS2591: Cannot find name 'node:fs'");
      const dynamic = await failure(script("(async () => { console.log('ran'); await import('node:fs'); })()"));
      expect(dynamic).to.be.instanceOf(SandboxViolationError).and.include({ what: 'import()', printed: '' });
      const meta = await failure(script('(async () => import.meta.url)()'));
      expect(meta).to.be.instanceOf(SandboxViolationError).and.include({ what: 'import.meta' });
    });

    it('gives no way back to the host through constructors: code generation from strings is off', async () => {
      for (const escape of ["this.constructor.constructor('return process')()", "tools.github_get.constructor('return process')()", "console.log.constructor('return process')()"]) {
        const error = await failure(script(escape));
        expect(error, escape).to.be.instanceOf(ProgramError);
        expect(error.message, escape).to.match(/EvalError: Code generation from strings disallowed for this context/);
      }
    });

    it('adds only the tools and their error classes to JavaScript\'s globals; the rest are traps', async () => {
      const result = await run(
        `${LIST_RUNS}\nconst g = globalThis as any;\nconst names = Object.getOwnPropertyNames(g);\nreturn { values: names.filter((n) => 'value' in Object.getOwnPropertyDescriptor(g, n)!), traps: names.filter((n) => 'get' in Object.getOwnPropertyDescriptor(g, n)!) };`,
      );
      const { values, traps } = result.value as { values: string[]; traps: string[] };
      const plain = new Set(vm.runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]);
      expect(values.filter((name) => !plain.has(name))).to.have.members(['tools', '__program__', 'ToolCallError', 'PolicyDeniedError', 'ApprovalRequiredError', 'IncompleteResultError']);
      expect(traps).to.have.members(FORBIDDEN_GLOBALS);
      expect(session.world.mock.requests.map((r) => r.path)).to.deep.equal(['/repos/octo-org/octo-repo/actions/runs']);
    });
  });

  describe('errors and output', () => {
    it('reports an uncaught error with what was printed before it', async () => {
      const error = await failure(run("console.log('step 1');\nthrow new RangeError('the page was empty');"));
      expect(error).to.be.instanceOf(ProgramError).and.include({ errorName: 'RangeError', errorMessage: 'the page was empty', printed: 'step 1' });
    });

    it('fails the run, not the harness, on a promise rejected with nothing to handle it', async () => {
      const error = await failure(run("console.log('start');\nPromise.reject(new Error('forgotten'));\nreturn 1;"));
      expect(error).to.be.instanceOf(ProgramError).and.include({ errorName: 'UnhandledRejection', printed: 'start' });
      expect(error.message).to.contain('Error: forgotten (a promise was rejected and nothing handled it: await it or add a catch)');
      // A tool error nobody awaited is reported the same way, with its class.
      const tool = await failure(run("tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'no-such-repo' });\nawait new Promise(() => {});"));
      expect(tool).to.be.instanceOf(ProgramError).and.include({ errorName: 'UnhandledRejection' });
      expect(tool.message).to.contain('ToolCallError: github_list_workflow_runs:');
    });

    it('cuts what a program prints at the limit, with a note, so one loop cannot flood the model', async () => {
      const result = await session.harness.run("for (let i = 0; i < 10000; i++) console.log('line ' + i);", { maxPrintedBytes: 1000 });
      expect(Buffer.byteLength(result.printed)).to.be.lessThan(1100);
      expect(result.printed.split('\n').at(-1)).to.equal('... (output cut at 1000 bytes)');
    });

    it('prints values as compact JSON and returns the program\'s value', async () => {
      const result = await run("console.log('n', 1, { a: [1, 2] }, null);\nreturn { done: true };");
      expect(result).to.deep.include({ printed: 'n 1 {"a":[1,2]} null', value: { done: true } });
    });
  });
});
