/**
 * When a rate-limited response says the caller may retry, in seconds from now: 429 with or without
 * `Retry-After` (seconds or an HTTP date), and GitHub's 403 with `x-ratelimit-remaining: 0` (primary limit,
 * reset at `x-ratelimit-reset`), with `Retry-After`, or whose body names a secondary rate limit (GitHub's
 * secondary limit without the header). An answer to a GraphQL operation (`graphql`) is one too when it is
 * GitHub's GraphQL limit: a 200 whose `errors` say `RATE_LIMITED` (GraphQL over HTTP answers 200). The body is
 * read only for those (a getter may decode a big one). Undefined when it is not a rate limit.
 */
export function rateLimitRetryAfter(
  status: number,
  headers: Headers,
  nowMs: number,
  body: () => string = () => '',
  graphql = false,
): { seconds: number | undefined } | undefined {
  const retryAfter = parseRetryAfter(headers.get('retry-after'), nowMs);
  const remaining = headers.get('x-ratelimit-remaining');
  const resetAt = parseReset(headers.get('x-ratelimit-reset'), nowMs);
  const resetSeconds = resetAt === undefined ? undefined : Math.max(0, Math.ceil((resetAt - nowMs) / 1000));
  if (status === 429) return { seconds: retryAfter ?? resetSeconds };
  if (status === 403 && (remaining === '0' || retryAfter !== undefined)) return { seconds: retryAfter ?? resetSeconds };
  if (status === 403 && /secondary rate limit/i.test(body().slice(0, 2000))) return { seconds: undefined };
  if (graphql && status === 200 && graphqlRateLimited(headers, body)) return { seconds: retryAfter ?? resetSeconds };
  return undefined;
}

/** The most of a GraphQL answer read for RATE_LIMITED: GitHub's is a few hundred bytes, never a page of data. */
const GRAPHQL_LIMIT_BYTES = 16_384;

/**
 * Whether a GraphQL answer is GitHub's GraphQL rate limit: `{"errors":[{"type":"RATE_LIMITED",...}]}` (and no
 * data), as GitHub answers a query once the graphql budget is spent, with 200 and its x-ratelimit-* headers.
 * Only a small answer is read (a quick test of the text first): a large one holds data, not a refusal.
 */
function graphqlRateLimited(headers: Headers, body: () => string): boolean {
  const length = Number(headers.get('content-length') ?? '0');
  if (length > GRAPHQL_LIMIT_BYTES) return false;
  const text = body();
  if (text.length > GRAPHQL_LIMIT_BYTES || !text.includes('RATE_LIMITED')) return false;
  try {
    const parsed = JSON.parse(text) as { data?: unknown; errors?: unknown };
    if (parsed === null || typeof parsed !== 'object' || (parsed.data !== undefined && parsed.data !== null)) return false;
    return Array.isArray(parsed.errors) && parsed.errors.some((e) => e !== null && typeof e === 'object' && (e as { type?: unknown }).type === 'RATE_LIMITED');
  } catch {
    return false;
  }
}

/**
 * The "retry after" sentence of a rate limit: the seconds and the moment (UTC), or, when the vendor did not
 * say, a minute (GitHub's documented least wait after a secondary limit without Retry-After).
 */
export function retryWhen(seconds: number | undefined, nowMs: number): string {
  if (seconds === undefined) return 'Wait a minute before retrying';
  return `Retry after ${seconds} seconds (at ${new Date(nowMs + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')})`;
}

/** What a vendor's answer says of the budget left: GitHub's, Atlassian's and Bitbucket's `x-ratelimit-*`. */
export interface BudgetSignal {
  remaining: number;
  /** The window's whole budget, when the vendor says it. */
  limit: number | undefined;
  /** When the window ends and the budget is whole again (ms since the epoch). */
  resetAtMs: number;
  /** GitHub's `x-ratelimit-resource` (`core`, `search`, `graphql`): each has its own budget. */
  resource: string | undefined;
}

/**
 * The budget an answer reports, or undefined when it reports none, or none with a reset time (a count
 * without a window cannot be spread over it).
 */
export function budgetSignal(headers: Headers, nowMs: number): BudgetSignal | undefined {
  const remaining = wholeNumber(headers.get('x-ratelimit-remaining'));
  const resetAtMs = parseReset(headers.get('x-ratelimit-reset'), nowMs);
  if (remaining === undefined || resetAtMs === undefined) return undefined;
  const resource = headers.get('x-ratelimit-resource')?.trim();
  return {
    remaining,
    limit: wholeNumber(headers.get('x-ratelimit-limit')),
    resetAtMs,
    resource: resource !== undefined && /^[a-z0-9_-]{1,40}$/i.test(resource) ? resource : undefined,
  };
}

function wholeNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d{1,12}\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * `x-ratelimit-reset` as a moment: epoch seconds (GitHub, GitLab), seconds from now when small (a few
 * gateways), or an ISO 8601 timestamp (Atlassian Cloud).
 */
function parseReset(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = wholeNumber(value);
  if (n !== undefined) return n > 1_000_000_000 ? n * 1000 : nowMs + n * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
