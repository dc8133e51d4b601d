import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { ProgramLimits } from '../code-mode-settings.js';
import { PRELUDE } from './prelude.js';
import { freshQuickJs } from './quickjs-module.js';
import { limitStop, ProgramStop } from './program-stop.js';

/** The host's side of a program's only doors (the prelude holds them; only strings cross). */
export interface ProgramHost {
  readonly toolNames: readonly string[];
  /** One tool call: the reply the prelude parses (`{ok, value}` or `{ok: false, code, message, meta}`); a ProgramStop ends the program. */
  call(name: string, argsJson: string): Promise<string>;
  /** One printed line; throws a ProgramStop past what a program may print. */
  print(line: string): void;
}

/**
 * How the server stops a program: `halted` is read by the interrupt handler while the program computes (a flag
 * the server raises from its thread), `onHalt` is given the function that stops it while it awaits.
 */
export interface HaltControl {
  halted(): boolean;
  onHalt(halt: (stop: ProgramStop) => void): void;
}

/** How a program ended: the JSON of what it returned ('' for nothing), what it threw, or why the host stopped it. */
export type ProgramEnd = { kind: 'returned'; json: string } | { kind: 'threw'; message: string } | { kind: 'stopped'; stop: ProgramStop };

export interface ProgramRun {
  readonly end: ProgramEnd;
  /** Milliseconds from the call to a sandbox ready to run the program (a fresh WebAssembly instance, runtime, context, prelude). */
  readonly startupMs: number;
}

/** Stack a program may use; deep recursion overflows it (QuickJS's own guard, far below the host's). */
const STACK_BYTES = 512 * 1024;

/** A sandbox made ready for one program (runtime, limits, doors, prelude), not yet given it; or why it could not be. */
export type PreparedSandbox =
  | { readonly ready: true; readonly startupMs: number; run(script: string, control: HaltControl): Promise<ProgramEnd> }
  | { readonly ready: false; readonly startupMs: number; readonly end: ProgramEnd };

/**
 * Makes a QuickJS sandbox of its own (sandbox/quickjs-module.ts) ready for one program under `limits`: memory
 * and stack are QuickJS's limits; CPU time and wall time are watched by the interrupt handler while the
 * program's code runs, and by a timer while it awaits tool calls (both from `run`, which starts the wall clock).
 * It has no way out but the host's doors: no module loader, no timers, no `std`/`os`. Nothing of a program is
 * in it until `run`, so it may be made while the program is still being compiled, and dropped if it fails to.
 */
export async function prepareSandbox(
  host: ProgramHost,
  limits: ProgramLimits,
  instance: Promise<QuickJSWASMModule> = freshQuickJs(),
): Promise<PreparedSandbox> {
  const started = performance.now();
  const quickjs = await instance;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  const context = runtime.newContext();
  const run = new Run(runtime, context, host, limits);
  const installed = run.install();
  const startupMs = performance.now() - started;
  if (!installed) return { ready: false, startupMs, end: run.ending! };
  // Nothing is freed one object at a time afterwards: the WebAssembly instance is the program's alone and is
  // dropped whole, with its memory (QuickJS asserts, and aborts its instance, when a runtime is freed while
  // objects a program made are still linked, as a stopped program's are).
  return { ready: true, startupMs, run: (script, control) => run.start(script, control) };
}

/** Runs a compiled program in a sandbox made for it (prepareSandbox). Resolves when the program ends, however it ends; never rejects for the program's sake. */
export async function runProgram(
  script: string,
  host: ProgramHost,
  limits: ProgramLimits,
  control: HaltControl,
  instance: Promise<QuickJSWASMModule> = freshQuickJs(),
): Promise<ProgramRun> {
  const sandbox = await prepareSandbox(host, limits, instance);
  return { end: sandbox.ready ? await sandbox.run(script, control) : sandbox.end, startupMs: sandbox.startupMs };
}

/** How a sandbox is controlled before its program starts: nothing from the server halts the prelude. */
const NOT_STARTED: HaltControl = { halted: () => false, onHalt: () => undefined };

/** One program's run: the VM, its doors, and the bookkeeping of its limits. */
class Run {
  ending: ProgramEnd | undefined;
  private stop: ProgramStop | undefined;
  private cpuUsed = 0;
  private enteredAt = -1;
  private inFlight = 0;
  private settle: ((end: ProgramEnd) => void) | undefined;
  private watch: QuickJSHandle | undefined;
  /** The server's halt control, from the program's start; the wall clock too starts then. */
  private control = NOT_STARTED;
  private wallDeadline = Number.POSITIVE_INFINITY;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private readonly host: ProgramHost,
    private readonly limits: ProgramLimits,
  ) {
    runtime.setInterruptHandler(() => this.shouldInterrupt());
  }

  /** Defines the doors and runs the prelude; false (with `ending` set) if the sandbox could not be made ready. */
  install(): boolean {
    const { context } = this;
    const call = context.newFunction('__host_call', (nameHandle, argsHandle) => this.startCall(context.getString(nameHandle), context.getString(argsHandle)));
    const print = context.newFunction('__host_print', (textHandle) => this.print(context.getString(textHandle)));
    const done = context.newFunction('__host_done', (okHandle, textHandle) => {
      this.finish(context.dump(okHandle) === true ? { kind: 'returned', json: context.getString(textHandle) } : this.thrown(context.getString(textHandle)));
    });
    const names = context.newString(JSON.stringify(this.host.toolNames));
    for (const [name, handle] of [
      ['__host_call', call],
      ['__host_print', print],
      ['__host_done', done],
      ['__tool_names', names],
    ] as const) {
      context.setProp(context.global, name, handle);
      handle.dispose();
    }
    const result = this.inVm(() => context.evalCode(PRELUDE, 'prelude.js'));
    if (result.error !== undefined) {
      this.ending = this.failure(result.error);
      result.error.dispose();
      return false;
    }
    this.watch = result.value;
    return true;
  }

  /** Evaluates the program and drives it until it ends. */
  start(script: string, control: HaltControl): Promise<ProgramEnd> {
    this.control = control;
    this.wallDeadline = performance.now() + this.limits.wallMs;
    const ended = new Promise<ProgramEnd>((resolve) => (this.settle = resolve));
    this.control.onHalt((stop) => this.halt(stop));
    const timer = setTimeout(() => this.halt(limitStop.wall(this.limits.wallMs)), Math.max(0, this.wallDeadline - performance.now()));
    if (this.control.halted()) this.halt(limitStop.cancelled());
    else {
      const result = this.inVm(() => this.context.evalCode(script, 'program.js'));
      if (result.error !== undefined) {
        this.finish(this.failure(result.error));
        result.error.dispose();
      } else {
        const watched = this.inVm(() => this.context.callFunction(this.watch!, this.context.undefined, result.value));
        result.value.dispose();
        if (watched.error !== undefined) {
          this.finish(this.failure(watched.error));
          watched.error.dispose();
        } else watched.value.dispose();
        this.pump();
      }
    }
    return ended.finally(() => clearTimeout(timer));
  }

  /** Runs the jobs the program queued (promise reactions) until none is left or the program ended. */
  private pump(): void {
    while (this.ending === undefined && this.runtime.hasPendingJob()) {
      const result = this.inVm(() => this.runtime.executePendingJobs());
      if (result.error !== undefined) {
        this.finish(this.failure(result.error));
        result.error.dispose();
      }
    }
    // Nothing is left to run, nothing is in flight, and the program has not ended: it never will.
    if (this.ending === undefined && this.inFlight === 0) this.halt(limitStop.forever());
  }

  /** The door of `tools.<name>(args)`: a QuickJS promise, settled when the host's call ends. */
  private startCall(name: string, argsJson: string): QuickJSHandle {
    const deferred = this.context.newPromise();
    this.inFlight += 1;
    this.host.call(name, argsJson).then(
      (reply) => {
        this.inFlight -= 1;
        if (this.ending !== undefined) return deferred.dispose();
        const text = this.context.newString(reply);
        deferred.resolve(text);
        text.dispose();
        deferred.dispose();
        this.pump();
      },
      (error: unknown) => {
        this.inFlight -= 1;
        deferred.dispose();
        this.halt(error instanceof ProgramStop ? error : new ProgramStop('tool_failed', `A tool call failed in the host: ${(error as Error).message}`));
      },
    );
    return deferred.handle;
  }

  private print(line: string): void {
    try {
      this.host.print(line);
    } catch (error) {
      // Stopped at the next instruction by the interrupt handler: a stop is not an error the program could catch.
      if (error instanceof ProgramStop) this.stop = error;
      else throw error;
    }
  }

  /** Ends the program from the host (a limit, a hold, a cancellation): it is interrupted if running, dropped if waiting. */
  private halt(stop: ProgramStop): void {
    this.stop ??= stop;
    if (this.enteredAt < 0) this.finish({ kind: 'stopped', stop: this.stop });
  }

  private finish(end: ProgramEnd): void {
    if (this.ending !== undefined) return;
    // A stop wins over an ending reached after it (the last print went past the limit).
    this.ending = this.stop !== undefined && end.kind !== 'stopped' ? { kind: 'stopped', stop: this.stop } : end;
    this.settle?.(this.ending);
  }

  private shouldInterrupt(): boolean {
    if (this.stop !== undefined) return true;
    // Raised by the server (a hold, a cancellation): it knows why, and reports its own stop.
    if (this.control.halted()) this.stop = limitStop.cancelled();
    if (this.stop !== undefined) return true;
    const now = performance.now();
    // CPU first: a program computing all along has spent its wall time computing, and CPU is what to fix.
    if (this.cpuUsed + (now - this.enteredAt) > this.limits.cpuMs) this.stop = limitStop.cpu(this.limits.cpuMs);
    else if (now > this.wallDeadline) this.stop = limitStop.wall(this.limits.wallMs);
    return this.stop !== undefined;
  }

  /** Runs VM code, counting its CPU time against the limit. */
  private inVm<T>(enter: () => T): T {
    this.enteredAt = performance.now();
    try {
      return enter();
    } finally {
      this.cpuUsed += performance.now() - this.enteredAt;
      this.enteredAt = -1;
    }
  }

  /** What a program's rejected promise says: QuickJS's own limits arrive this way too, as InternalErrors. */
  private thrown(message: string): ProgramEnd {
    if (message === 'InternalError: out of memory') return { kind: 'stopped', stop: limitStop.memory(this.limits.memoryBytes) };
    if (message === 'InternalError: stack overflow') return { kind: 'stopped', stop: limitStop.stack() };
    return { kind: 'threw', message };
  }

  /** An error the VM gave back: the limit it stands for when QuickJS stopped the program, else what the program threw. */
  private failure(error: QuickJSHandle): ProgramEnd {
    if (this.stop !== undefined) return { kind: 'stopped', stop: this.stop };
    const dumped = this.context.dump(error) as { name?: string; message?: string } | string | undefined;
    const name = typeof dumped === 'object' && dumped !== null ? dumped.name : undefined;
    const message = typeof dumped === 'object' && dumped !== null ? String(dumped.message ?? '') : String(dumped);
    if (name === 'InternalError' && message === 'interrupted') return { kind: 'stopped', stop: limitStop.cpu(this.limits.cpuMs) };
    return this.thrown(name === undefined ? message : `${name}: ${message}`);
  }
}
