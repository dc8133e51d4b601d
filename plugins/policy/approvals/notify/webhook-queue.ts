/** One event on its way to one receiver. */
export interface Delivery {
  url: URL;
  eventId: string;
  event: string;
  approvalId: string;
  /** The held call's tool (the audit record of the attempt names it). */
  tool: string;
  body: string;
  /** 1 for the first attempt. */
  attempt: number;
}

/** What one attempt came to: delivered (2xx), or failed, with whether it is worth trying again. */
export type AttemptResult = (
  { delivered: true; status: number } | { delivered: false; status?: number; error: string; retry: boolean; retryAfterMs?: number }
) & {
  durationMs?: number;
};

/** A retry waiting to run. */
export interface RetryTimer {
  cancel(): void;
}

/** Runs `retry` in `ms`: the process's timers (unreferenced), or a test's own, which see how long was asked for. */
export type ScheduleRetry = (retry: () => void, ms: number) => RetryTimer;

const processTimers: ScheduleRetry = (retry, ms) => {
  const timer = setTimeout(retry, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

export interface QueueOptions {
  attempt: (delivery: Delivery) => Promise<AttemptResult>;
  /** Told of every attempt's result (`retrying`: another attempt is scheduled), and of a delivery dropped unsent. */
  report: (delivery: Delivery, result: AttemptResult | { dropped: string }, retrying: boolean) => void;
  /** Waits before the 2nd, 3rd... attempt; their count is how many retries there are. */
  backoffMs: readonly number[];
  /** Deliveries waiting or in flight at most; a new one past it is dropped (and reported), never the call. */
  maxQueued: number;
  concurrency: number;
  schedule?: ScheduleRetry;
}

/** A Retry-After longer than this is not waited for: the next backoff step is used instead. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * Webhook deliveries off the call's path: `enqueue` returns at once, attempts run a few at a time, a failed one
 * is tried again after each backoff step (or the receiver's Retry-After), and the queue is bounded so a receiver
 * that is down cannot make the server hold more and more events. Kept in memory: a restart loses what waits.
 */
export class WebhookQueue {
  private readonly waiting: Delivery[] = [];
  private readonly timers = new Set<RetryTimer>();
  private running = 0;
  private queued = 0;
  private idle: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: QueueOptions) {}

  /** Queues a first attempt; false (and reported as dropped) when the queue is full or closed. */
  enqueue(delivery: Delivery): boolean {
    if (this.closed || this.queued >= this.options.maxQueued) {
      this.options.report(delivery, { dropped: this.closed ? 'the server is shutting down' : `the queue holds ${this.options.maxQueued} deliveries` }, false);
      return false;
    }
    this.queued++;
    this.waiting.push(delivery);
    this.pump();
    return true;
  }

  /** Deliveries waiting, retrying or in flight. */
  get size(): number {
    return this.queued;
  }

  /** Resolves once nothing waits or runs, or after `timeoutMs` (what is left then is abandoned by close). */
  async drain(timeoutMs: number): Promise<void> {
    if (this.queued === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.push(resolve)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  /** Stops retrying: deliveries still waiting are dropped; returns how many. */
  close(): number {
    this.closed = true;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    const left = this.queued - this.running;
    this.waiting.length = 0;
    this.queued = this.running;
    return left;
  }

  private pump(): void {
    while (!this.closed && this.running < this.options.concurrency && this.waiting.length > 0) {
      const delivery = this.waiting.shift()!;
      this.running++;
      void this.run(delivery);
    }
  }

  private async run(delivery: Delivery): Promise<void> {
    let result: AttemptResult;
    try {
      result = await this.options.attempt(delivery);
    } catch (error) {
      result = { delivered: false, error: (error as Error).message, retry: true };
    }
    this.running--;
    const wait = result.delivered || !result.retry ? undefined : this.options.backoffMs[delivery.attempt - 1];
    const retrying = wait !== undefined && !this.closed;
    this.options.report(delivery, result, retrying);
    if (retrying) {
      const after =
        !result.delivered && result.retryAfterMs !== undefined && result.retryAfterMs <= MAX_RETRY_AFTER_MS ? Math.max(wait, result.retryAfterMs) : wait;
      const timer = (this.options.schedule ?? processTimers)(() => {
        this.timers.delete(timer);
        this.waiting.push({ ...delivery, attempt: delivery.attempt + 1 });
        this.pump();
      }, after);
      this.timers.add(timer);
    } else {
      this.queued--;
      if (this.queued === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
    this.pump();
  }
}
