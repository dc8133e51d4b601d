/**
 * When a rate-limited response says the caller may retry, in seconds from now: 429 with or without
 * `Retry-After` (seconds or an HTTP date), and GitHub's 403 with `x-ratelimit-remaining: 0` (primary limit,
 * reset at `x-ratelimit-reset`) or with `Retry-After` (secondary limit). Undefined when it is not a rate limit.
 */
export function rateLimitRetryAfter(status: number, headers: Headers, nowMs: number): { seconds: number | undefined } | undefined {
  const retryAfter = parseRetryAfter(headers.get('retry-after'), nowMs);
  const remaining = headers.get('x-ratelimit-remaining');
  const reset = Number(headers.get('x-ratelimit-reset'));
  const resetSeconds = Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - nowMs / 1000)) : undefined;
  if (status === 429) return { seconds: retryAfter ?? resetSeconds };
  if (status === 403 && (remaining === '0' || retryAfter !== undefined)) return { seconds: retryAfter ?? resetSeconds };
  return undefined;
}

function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
