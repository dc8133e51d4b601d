import type { ProgramLimits } from '../code-mode-settings.js';
import type { ProgramEnd } from './program-run.js';

/** A stop as it crosses between threads (ProgramStop's fields). */
export interface StopMessage {
  readonly code: string;
  readonly message: string;
  readonly meta?: Record<string, unknown>;
}

/** What the server sends a sandbox worker. */
export type ToWorker =
  /** Make the next program's sandbox ready (while the server compiles it): its tools and limits. */
  | { readonly type: 'prepare'; readonly toolNames: readonly string[]; readonly limits: ProgramLimits }
  /** Run a program: in the sandbox `prepare` made, else in one made now for these tools and limits. */
  | { readonly type: 'run'; readonly script: string; readonly toolNames: readonly string[]; readonly limits: ProgramLimits }
  /** The program `prepare` was for will not run (it did not compile, or its caller went): drop its sandbox. */
  | { readonly type: 'discard' }
  | { readonly type: 'reply'; readonly callId: number; readonly reply: string }
  | { readonly type: 'halt'; readonly stop: StopMessage };

/** What a sandbox worker sends the server. */
export type FromWorker =
  | { readonly type: 'call'; readonly callId: number; readonly name: string; readonly args: string }
  | { readonly type: 'print'; readonly line: string }
  | { readonly type: 'done'; readonly end: WireEnd; readonly startupMs: number };

/** ProgramEnd with its stop as plain data. */
export type WireEnd = Exclude<ProgramEnd, { kind: 'stopped' }> | { readonly kind: 'stopped'; readonly stop: StopMessage };

/** The worker's `workerData`: a flag the server raises to interrupt a program that is computing. */
export interface WorkerData {
  readonly haltFlag: Int32Array;
}
