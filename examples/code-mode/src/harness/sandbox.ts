import vm from 'node:vm';
import { forbiddenSyntaxIn } from './forbidden-syntax.js';
import { ProgramError, SandboxError, SandboxTimeoutError, SandboxViolationError } from './sandbox-errors.js';
import { installSandbox, type Ending, type HostDoors } from './sandbox-prelude.js';
import { routeUnhandledRejections } from './unhandled-rejections.js';
import { defineToolErrors, toolErrorFromRecord, type ToolCallError, type ToolErrorClasses, type ToolErrorRecord } from './tool-errors.js';

export interface SandboxLimits {
  /** Longest stretch of program code between two awaits, in ms (node:vm's `timeout`): stops endless loops. */
  syncTimeoutMs: number;
  /** The whole run, tool calls included, in ms. */
  deadlineMs: number;
  /** What the program may print; more is cut with a note, so one loop cannot flood the model. */
  maxPrintedBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { syncTimeoutMs: 2_000, deadlineMs: 120_000, maxPrintedBytes: 64 * 1024 };

/** Globals a Node program would reach for. Touching one stops the run, even if the program catches the error. */
export const FORBIDDEN_GLOBALS = [
  'process', 'require', 'module', 'exports', '__filename', '__dirname', 'global', 'Buffer',
  'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'navigator',
  'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate',
];

export interface SandboxRun {
  /** What the program printed, one line per console call. */
  printed: string;
  /** What it returned (null for nothing), through JSON. */
  value: unknown;
}

/** The program's only door out: a tool call by name with JSON arguments, answered with a JSON value or a typed error. */
export type ToolGate = (tool: string, args: Record<string, unknown>) => Promise<unknown>;

/**
 * Runs one script in a fresh node:vm context. The script's completion value (a promise, for an async program) is
 * awaited. The context has the JavaScript built-ins, `console`, the tool error classes and `tools`, and nothing
 * else: no `process`, `require`, `import()`, network or timers. Its microtasks run in its own queue, drained only
 * under the sync time limit, so even a loop of awaits cannot hold the harness past the deadline.
 *
 * node:vm is not a security boundary against hostile code (Node's documentation says so): it keeps a model's
 * program honest. Run untrusted programs in isolated-vm or a separate process.
 */
export function runInSandbox(script: string, toolNames: readonly string[], gate: ToolGate, limits: SandboxLimits = DEFAULT_LIMITS): Promise<SandboxRun> {
  return new SandboxSession(toolNames, gate, limits).run(script);
}

class SandboxSession {
  // A null-prototype sandbox object: with a plain `{}`, `this.constructor.constructor` is the host's Function.
  private readonly context = vm.createContext(Object.create(null) as object, { microtaskMode: 'afterEvaluate', codeGeneration: { strings: false, wasm: false } });
  private readonly drainScript = new vm.Script('void 0');
  private readonly printed: string[] = [];
  private printedBytes = 0;
  private settled = false;
  private resolveRun!: (run: SandboxRun) => void;
  private rejectRun!: (error: Error) => void;
  private deadline?: NodeJS.Timeout;

  constructor(
    private readonly toolNames: readonly string[],
    private readonly gate: ToolGate,
    private readonly limits: SandboxLimits,
  ) {}

  run(script: string): Promise<SandboxRun> {
    const done = new Promise<SandboxRun>((resolve, reject) => {
      this.resolveRun = resolve;
      this.rejectRun = reject;
    });
    const syntax = forbiddenSyntaxIn(script);
    if (syntax !== undefined) {
      this.fail(new SandboxViolationError(syntax));
      return done;
    }
    this.deadline = setTimeout(() => this.fail(new SandboxTimeoutError('deadline', this.limits.deadlineMs)), this.limits.deadlineMs);
    this.inContext(() => {
      const errors = vm.runInContext(`(${defineToolErrors.toString()})()`, this.context) as ToolErrorClasses;
      const install = vm.runInContext(`(${installSandbox.toString()})`, this.context) as typeof installSandbox;
      const watch = install(this.doors(), JSON.stringify(this.toolNames), JSON.stringify(FORBIDDEN_GLOBALS), errors);
      routeUnhandledRejections(vm.runInContext('Promise.prototype', this.context) as object, {
        unhandledRejection: (reason) => {
          const [name, message] = thrown(reason);
          this.fail(new ProgramError('UnhandledRejection', `${name}: ${message} (a promise was rejected and nothing handled it: await it or add a catch)`));
        },
      });
      const completion: unknown = new vm.Script(script, { filename: 'program.js' }).runInContext(this.context, { timeout: this.limits.syncTimeoutMs });
      void watch(completion);
    });
    return done;
  }

  /** Host code that enters the context, then the context's microtasks, drained under the sync time limit. */
  private inContext(enter: () => void): void {
    if (this.settled) return;
    try {
      enter();
      this.drainScript.runInContext(this.context, { timeout: this.limits.syncTimeoutMs });
    } catch (error) {
      // A timeout, a syntax error of the script, or what a plain (not async) script threw at its top level.
      if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') this.fail(new SandboxTimeoutError('sync', this.limits.syncTimeoutMs));
      else this.fail(new ProgramError(...thrown(error)));
    }
  }

  private doors(): HostDoors {
    return {
      call: (tool, argsJson, settle) => {
        if (this.settled) return;
        Promise.resolve()
          .then(() => this.gate(tool, JSON.parse(argsJson) as Record<string, unknown>))
          .then(
            (value) => this.inContext(() => settle(true, JSON.stringify(value))),
            (error: unknown) => this.inContext(() => settle(false, JSON.stringify(recordOf(tool, error)))),
          );
      },
      print: (line) => this.print(line),
      violation: (what) => this.fail(new SandboxViolationError(what)),
      finish: (ok, json) => {
        const ending = JSON.parse(json) as Ending;
        // Success waits a turn of the event loop: Node reports a rejection nobody handled only then, and such a
        // rejection fails the run even when the program went on to finish.
        if (ok && 'value' in ending) return void setImmediate(() => this.succeed(ending.value));
        if ('toolError' in ending) return this.fail(toolErrorFromRecord(ending.toolError));
        if ('errorName' in ending) this.fail(new ProgramError(ending.errorName, ending.errorMessage));
      },
    };
  }

  private print(line: string): void {
    if (this.settled || this.printedBytes > this.limits.maxPrintedBytes) return;
    this.printedBytes += Buffer.byteLength(line, 'utf8') + 1;
    this.printed.push(this.printedBytes > this.limits.maxPrintedBytes ? `... (output cut at ${this.limits.maxPrintedBytes} bytes)` : line);
  }

  private succeed(value: unknown): void {
    if (this.settle()) this.resolveRun({ printed: this.printed.join('\n'), value });
  }

  private fail(error: Error): void {
    if (!this.settle()) return;
    if (error instanceof SandboxError) error.printed = this.printed.join('\n');
    this.rejectRun(error);
  }

  /** True the first time: a run ends once, and nothing reaches the context after that. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.deadline);
    return true;
  }
}

/**
 * The name and message of something a program threw, read without trusting it: it may be an Error of the
 * sandbox's realm, of the host's (a timeout, a syntax error), or any value at all.
 */
function thrown(value: unknown): [name: string, message: string] {
  try {
    const { name, message } = (value ?? {}) as { name?: unknown; message?: unknown };
    return message === undefined ? ['Thrown', String(value)] : [String(name ?? 'Error'), String(message)];
  } catch {
    return ['Thrown', 'a value that cannot be shown'];
  }
}

/** A gate failure as a record the sandbox turns back into a typed error; anything unexpected is a plain tool error. */
function recordOf(tool: string, error: unknown): ToolErrorRecord {
  const typed = error as Partial<ToolCallError>;
  if (typeof typed.toRecord === 'function') return typed.toRecord();
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'tool', tool, message: `${tool}: ${message}`, code: null, text: message, meta: {} };
}
