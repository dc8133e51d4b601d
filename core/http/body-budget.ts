import type { BodyLease, WaitObserver } from '../plugin/body-lease.js';

/**
 * A bound on the upstream body bytes held by calls in flight. One large call holds many copies of its body
 * (text, parsed value, rendering, artifact) until it ends, so without a bound 64 clients fetching 16 MiB pages
 * exhaust the heap and the process dies. Reading a body takes from the budget chunk by chunk; when the budget is
 * spent, the read waits (TCP applies backpressure to the vendor) until a call ends and gives its share back.
 *
 * Progress is guaranteed: the oldest call in flight is never made to wait, so it finishes and frees its share,
 * whatever the others hold.
 */
export class BodyBudget {
  private held = 0;
  private readonly leases = new Set<Lease>();
  private readonly waiting: Array<{ lease: Lease; bytes: number; wake: () => void }> = [];

  /** `maxBytes` 0 means no bound. */
  constructor(readonly maxBytes: number) {}

  /** A call's share of the budget; release it when the call ends, whatever happened. */
  lease(): BodyLease {
    const lease = new Lease(this);
    this.leases.add(lease);
    return lease;
  }

  /** Bytes held by calls in flight (for tests and the benchmark). */
  get inUse(): number {
    return this.held;
  }

  /** @internal */
  async take(lease: Lease, bytes: number, signal: AbortSignal, waiting?: WaitObserver): Promise<void> {
    if (this.fits(lease, bytes)) return this.hold(lease, bytes);
    waiting?.pause();
    try {
      await this.waitAndHold(lease, bytes, signal);
    } finally {
      waiting?.resume();
    }
  }

  /** Waits until the bytes fit, then holds them in the same tick: woken waiters never both see the same room. */
  private async waitAndHold(lease: Lease, bytes: number, signal: AbortSignal): Promise<void> {
    while (!this.fits(lease, bytes)) {
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const entry = { lease, bytes, wake: () => (signal.removeEventListener('abort', onAbort), resolve()) };
        const onAbort = (): void => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(entry);
      });
    }
    this.hold(lease, bytes);
  }

  private hold(lease: Lease, bytes: number): void {
    this.held += bytes;
    lease.held += bytes;
  }

  /** @internal */
  release(lease: Lease): void {
    if (!this.leases.delete(lease)) return;
    this.held -= lease.held;
    lease.held = 0;
    for (const entry of this.waiting.splice(0)) entry.wake();
  }

  private fits(lease: Lease, bytes: number): boolean {
    if (this.maxBytes === 0 || this.held + bytes <= this.maxBytes) return true;
    const oldest = this.leases.values().next().value;
    return oldest === lease;
  }
}

class Lease implements BodyLease {
  held = 0;
  textBytes = 0;
  constructor(private readonly budget: BodyBudget) {}
  take(bytes: number, signal: AbortSignal, waiting?: WaitObserver): Promise<void> {
    return this.budget.take(this, bytes, signal, waiting);
  }
  release(): void {
    this.budget.release(this);
  }
}
