import type { ErrorCode } from '../../../core/errors/catalogue.js';

/**
 * Why the host ended a program before it finished: a limit it reached (`program_limit`), an inner call held for
 * approval (`approval_required`), the caller's cancellation. `message` is the one sentence the caller reads.
 */
export class ProgramStop {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly meta?: Record<string, unknown>,
  ) {}
}

/** The limits, named as their settings: each stop says which one was reached and how to raise it. */
export const limitStop = {
  wall: (ms: number) => new ProgramStop('program_limit', `The program ran longer than ${ms} ms, its wall-time limit (MCP_CODE_TIMEOUT_MS), and was stopped.`),
  cpu: (ms: number) =>
    new ProgramStop('program_limit', `The program computed for more than ${ms} ms of CPU time, its limit (MCP_CODE_CPU_MS), and was stopped: an endless loop?`),
  memory: (bytes: number) =>
    new ProgramStop('program_limit', `The program used more than ${bytes / 1048576} MiB of memory, its limit (MCP_CODE_MEMORY_MB), and was stopped.`),
  stack: () => new ProgramStop('program_limit', 'The program recursed too deeply and overflowed its stack, and was stopped.'),
  calls: (max: number) => new ProgramStop('program_limit', `The program made more than ${max} tool calls, its limit (MCP_CODE_MAX_CALLS), and was stopped.`),
  printed: (bytes: number) =>
    new ProgramStop('program_limit', `The program printed more than ${bytes} bytes in all (MCP_CODE_MEMORY_MB bounds what it may print), and was stopped.`),
  forever: () =>
    new ProgramStop(
      'program_limit',
      'The program awaits a promise that can never settle (no tool call is in flight and there are no timers), and was stopped.',
    ),
  cancelled: () => new ProgramStop('cancelled', 'The execute call was cancelled, and the program with it.'),
};
