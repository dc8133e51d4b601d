/** Told when a promise of its context was rejected with no handler. */
export interface RejectionSink {
  unhandledRejection(reason: unknown): void;
}

// Keyed by each context's own Promise.prototype: a program's promises are recognised by their prototype.
const sinks = new WeakMap<object, RejectionSink>();
let installed = false;

/**
 * Routes the unhandled rejections of a sandbox's promises to its session. Node reports them process-wide, and by
 * default turns one into an uncaught exception that ends the process: a program that forgot a `catch` must fail
 * its own run, not take the harness down. Rejections that are not a sandbox's keep Node's behaviour (thrown, or
 * left to the application's own listeners when it has some).
 */
export function routeUnhandledRejections(promisePrototype: object, sink: RejectionSink): void {
  sinks.set(promisePrototype, sink);
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason, promise) => {
    const sink = sinks.get(Object.getPrototypeOf(promise) as object);
    if (sink !== undefined) return sink.unhandledRejection(reason);
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}
