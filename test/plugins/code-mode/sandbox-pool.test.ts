import { expect } from 'chai';
import type { ProgramLimits } from '../../../plugins/code-mode/code-mode-settings.js';
import { SandboxPool } from '../../../plugins/code-mode/sandbox/sandbox-pool.js';
import type { ProgramHost } from '../../../plugins/code-mode/sandbox/program-run.js';

const LIMITS: ProgramLimits = { wallMs: 5_000, cpuMs: 1_000, memoryBytes: 16 * 1024 * 1024, outputBytes: 4_096, maxCalls: 10 };

/** A compiled program as compileProgram makes it: an async function's body, then its call. */
const script = (body: string): string => `async function __program__() {\n${body}\n}\n__program__();\n`;

/** A host that records every tool call and printed line the sandbox sends it. */
function recordingHost(): ProgramHost & { calls: string[]; printed: string[] } {
  const calls: string[] = [];
  const printed: string[] = [];
  return {
    toolNames: ['noop'],
    calls,
    printed,
    call: async (name) => {
      calls.push(name);
      return '{"ok":true,"value":1}';
    },
    print: (line) => printed.push(line),
  };
}

/** A script still being compiled: settled by hand. */
function pending(): { promise: Promise<string>; resolve(text: string): void; reject(error: Error): void } {
  let resolve!: (text: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('code mode: a sandbox made ready while its program compiles', function () {
  this.timeout(30_000);
  let pool: SandboxPool;
  beforeEach(() => (pool = new SandboxPool(1)));
  afterEach(() => pool.close());

  it('runs the program once its script is there, and the thread runs the next one after', async () => {
    const compiling = pending();
    const host = recordingHost();
    const running = pool.run(compiling.promise, host, LIMITS, new AbortController().signal);
    // The sandbox is being made meanwhile; nothing of the program has run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.calls).to.deep.equal([]);
    compiling.resolve(script("console.log('ran'); return await tools.noop({});"));
    const { end } = await running;
    expect(end).to.deep.equal({ kind: 'returned', json: '1' });
    expect(host.calls).to.deep.equal(['noop']);
    expect(host.printed).to.deep.equal(['ran']);
    const next = await pool.run(script('return 2;'), recordingHost(), LIMITS, new AbortController().signal);
    expect(next.end).to.deep.equal({ kind: 'returned', json: '2' });
  });

  it('never runs a program that fails to compile: its error is the answer, and the thread serves the next program', async () => {
    const compiling = pending();
    const host = recordingHost();
    const running = pool.run(compiling.promise, host, LIMITS, new AbortController().signal);
    compiling.reject(new Error('The program has a type error and was not run'));
    let thrown: unknown;
    await running.catch((error: unknown) => (thrown = error));
    expect((thrown as Error | undefined)?.message).to.equal('The program has a type error and was not run');
    expect(host.calls).to.deep.equal([]);
    expect(host.printed).to.deep.equal([]);
    const next = await pool.run(script('return await tools.noop({});'), recordingHost(), LIMITS, new AbortController().signal);
    expect(next.end).to.deep.equal({ kind: 'returned', json: '1' });
  });

  it('never runs a program whose caller cancels while it compiles', async () => {
    const compiling = pending();
    const host = recordingHost();
    const cancel = new AbortController();
    const running = pool.run(compiling.promise, host, LIMITS, cancel.signal);
    cancel.abort();
    compiling.resolve(script("console.log('ran'); return await tools.noop({});"));
    const { end } = await running;
    expect(end.kind).to.equal('stopped');
    expect(host.calls).to.deep.equal([]);
    expect(host.printed).to.deep.equal([]);
    const next = await pool.run(script('return 3;'), recordingHost(), LIMITS, new AbortController().signal);
    expect(next.end).to.deep.equal({ kind: 'returned', json: '3' });
  });

  it("counts wall time from the program's start, not from its compiling", async () => {
    const compiling = pending();
    const running = pool.run(compiling.promise, recordingHost(), { ...LIMITS, wallMs: 100 }, new AbortController().signal);
    // Longer than the wall time and the watchdog's grace after it (2 s): a slow compile is not the program's time.
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    compiling.resolve(script('return 4;'));
    expect((await running).end).to.deep.equal({ kind: 'returned', json: '4' });
  });

  it('reports a program that fails to compile at once when every thread is busy, without waiting for one', async () => {
    let busyEnded = false;
    const busy = pool.run(script('for (;;) await null;'), recordingHost(), { ...LIMITS, cpuMs: 800 }, new AbortController().signal);
    void busy.then(() => (busyEnded = true));
    const failed = await pool.run(Promise.reject(new Error('syntax error')), recordingHost(), LIMITS, new AbortController().signal).then(
      () => 'ran',
      (error: unknown) => (error as Error).message,
    );
    expect(failed).to.equal('syntax error');
    expect(busyEnded, 'answered while the only thread was still busy').to.equal(false);
    expect((await busy).end.kind).to.equal('stopped');
  });
});
