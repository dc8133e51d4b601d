/**
 * Settles as `work` does, or rejects with `onTimeout()` once `ms` have passed, whichever comes first. The
 * work itself is not cancelled (a Redis command cannot be), but its late outcome is observed, so it can never
 * surface as an unhandled rejection; the timer does not keep the process alive.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
