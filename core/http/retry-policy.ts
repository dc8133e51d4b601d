/** Statuses that mean "try again shortly" for an idempotent request. 500 is not one: it is usually a bug. */
export const RETRYABLE_STATUSES = new Set([502, 503, 504]);

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** The low-level code of a fetch failure (`fetch failed` wraps it in `cause`). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Exponential backoff with full jitter: 100 ms, 200 ms, 400 ms ... capped at 2 s. */
export function backoffMs(attempt: number): number {
  return Math.random() * Math.min(2000, 100 * 2 ** attempt);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
