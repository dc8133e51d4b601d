/**
 * Why a program did not finish. Each message says what happened and what the program may do instead, because
 * the harness shows it to the model that wrote the program.
 */
export class SandboxError extends Error {
  /** What the program printed before it was stopped. */
  printed = '';
}

/** The program ran longer than a limit: `sync` for one uninterrupted stretch of code, `deadline` for the whole run. */
export class SandboxTimeoutError extends SandboxError {
  constructor(
    readonly limit: 'sync' | 'deadline',
    readonly ms: number,
  ) {
    super(
      limit === 'sync'
        ? `The program was stopped: it ran ${ms} ms without yielding (an endless loop?). Code between two awaits may run at most ${ms} ms.`
        : `The program was stopped: it did not finish within its deadline of ${ms} ms.`,
    );
    this.name = 'SandboxTimeoutError';
  }
}

/** The program reached for something outside the sandbox: `process`, `require`, `import()`, `fetch`, timers... */
export class SandboxViolationError extends SandboxError {
  constructor(readonly what: string) {
    super(`The program was stopped: it used ${what}, which the sandbox does not have. Its only way out is tools.<name>(args).`);
    this.name = 'SandboxViolationError';
  }
}

/** The program threw something it did not catch (not a tool error: those keep their own classes). */
export class ProgramError extends SandboxError {
  constructor(
    readonly errorName: string,
    readonly errorMessage: string,
  ) {
    super(`The program failed: ${errorName}: ${errorMessage}`);
    this.name = 'ProgramError';
  }
}

/** The program does not type-check against the tool declarations; `diagnostics` are the compiler's, one a line. */
export class ProgramTypeError extends Error {
  constructor(readonly diagnostics: string[]) {
    super(`The program does not type-check against the tool declarations:\n${diagnostics.join('\n')}`);
    this.name = 'ProgramTypeError';
  }
}
