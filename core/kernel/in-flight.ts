/**
 * Tracks calls in progress so shutdown can let them finish, then cancel what is left. Each call gets its own
 * AbortSignal, aborted when the client cancels or when the grace period ends.
 */
export class InFlightCalls {
  private readonly calls = new Set<{ done: Promise<unknown>; controller: AbortController }>();

  async run<T>(external: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(external?.reason);
    if (external?.aborted) controller.abort(external.reason);
    else external?.addEventListener('abort', onAbort, { once: true });
    const done = work(controller.signal);
    const entry = { done, controller };
    this.calls.add(entry);
    try {
      return await done;
    } finally {
      this.calls.delete(entry);
      external?.removeEventListener('abort', onAbort);
    }
  }

  get size(): number {
    return this.calls.size;
  }

  async drain(graceMs: number): Promise<void> {
    if (this.calls.size === 0) return;
    const all = Promise.allSettled([...this.calls].map((c) => c.done));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), graceMs);
    });
    const outcome = await Promise.race([all, expired]);
    clearTimeout(timer);
    if (outcome === 'expired') {
      for (const c of this.calls) c.controller.abort(new Error('server shutting down'));
      await all;
    }
  }
}
