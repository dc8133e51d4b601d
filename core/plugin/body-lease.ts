/** Told when a take has to wait and when it no longer does: the upstream timeout stands still meanwhile. */
export interface WaitObserver {
  pause(): void;
  resume(): void;
}

/** What a call holds of the in-flight body budget (core/http/body-budget.ts): the upstream client takes from it while reading. */
export interface BodyLease {
  /** Bytes of upstream bodies this call has read so far (what the stages after the handler will carry). */
  readonly held: number;
  /**
   * At most how many bytes the text of the bodies read whole so far takes as strings (core/text/large-string.ts,
   * decodedTextBytes): twice `held` when they have characters past ASCII. The reader adds each body it reads.
   */
  textBytes: number;
  /** Waits until `bytes` more fit (or the call is the oldest in flight); rejects if `signal` aborts. */
  take(bytes: number, signal: AbortSignal, waiting?: WaitObserver): Promise<void>;
  release(): void;
}
