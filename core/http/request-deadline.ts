/**
 * The timer of one upstream request (MCP_REQUEST_TIMEOUT_MS): it aborts `signal` once the vendor has had the
 * whole allowance, and it stands still while the request waits on this server rather than on the vendor (a read
 * queued for the in-flight body budget), so a busy server does not report a prompt vendor as timed out.
 * A timer held here, not AbortSignal.timeout: that one is held weakly, and after a garbage collection a slow
 * upstream kept the call open for minutes instead of timing out.
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private remainingMs: number;
  private startedAt = 0;
  private cleared = false;

  constructor(
    timeoutMs: number,
    private readonly reason: () => unknown,
  ) {
    this.remainingMs = timeoutMs;
    this.resume();
  }

  /** Aborts when the time runs out, when `abort` is called, or never once cleared. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    this.controller.abort(reason);
  }

  /** Stops the clock: the time until `resume` is not the vendor's. */
  pause(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs = Math.max(0, this.remainingMs - (performance.now() - this.startedAt));
  }

  /** Starts the clock again with what was left of the allowance. */
  resume(): void {
    if (this.timer !== undefined || this.cleared || this.controller.signal.aborted) return;
    this.startedAt = performance.now();
    this.timer = setTimeout(() => this.controller.abort(this.reason()), this.remainingMs);
  }

  /** The request is over: the clock stops for good. */
  clear(): void {
    this.cleared = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
