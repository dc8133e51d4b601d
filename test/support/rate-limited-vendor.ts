import type { MockReply, MockUpstream, RecordedRequest } from '../../server/testing/mock-upstream.js';

/**
 * How a vendor tells a caller of its rate limit, as each documents it:
 * - `github`: every answer carries `x-ratelimit-limit/-remaining/-used/-reset` (epoch seconds) and
 *   `-resource`; over the limit, the primary limit's 403 (remaining 0) and the secondary limit's 429 with
 *   `Retry-After` take turns.
 * - `atlassian`: nothing on a success; over the limit a 429 with `Retry-After` and an ISO 8601
 *   `X-RateLimit-Reset` (Jira and Confluence Cloud).
 * - `circleci`: nothing on a success; over the limit a 429 with `Retry-After` only.
 */
export type LimitStyle = 'github' | 'atlassian' | 'circleci';

export interface LimitedVendorOptions {
  style: LimitStyle;
  /** Requests each credential may make per window. */
  limit: number;
  /** The window, aligned to the epoch (a whole number of seconds, as `x-ratelimit-reset` counts them). */
  windowMs: number;
  /** The answer of an admitted request. */
  ok: (request: RecordedRequest) => MockReply;
  /** Which credential a request spends (default: its authorization header). */
  credentialOf?: (request: RecordedRequest) => string;
}

/** What the limited vendor counted. */
export interface LimitLedger {
  admitted: number;
  /** Requests refused for the limit (a 403 or a 429). */
  refused: number;
  /** Windows in which a request was admitted. */
  readonly windows: Set<number>;
  /** The largest number of requests admitted in one window of one credential (never above the limit). */
  mostInOneWindow: number;
}

/**
 * Installs on `mock` a vendor that enforces a fixed-window limit per credential on `path`, answering as
 * `style` says. The count is the vendor's: a request it refused does not spend the budget.
 */
export function enforceLimit(mock: MockUpstream, method: string, path: string | RegExp, options: LimitedVendorOptions): LimitLedger {
  const ledger: LimitLedger = { admitted: 0, refused: 0, windows: new Set(), mostInOneWindow: 0 };
  const spent = new Map<string, number>();
  const credentialOf = options.credentialOf ?? ((r: RecordedRequest) => String(r.headers.authorization ?? r.headers['circle-token'] ?? ''));
  mock.on(method, path, (request) => {
    const now = Date.now();
    const window = Math.floor(now / options.windowMs);
    const resetMs = (window + 1) * options.windowMs;
    const key = `${credentialOf(request)}\0${window}`;
    const used = spent.get(key) ?? 0;
    const retryAfter = String(Math.max(1, Math.ceil((resetMs - now) / 1000)));
    const github = (remaining: number): Record<string, string> => ({
      'x-ratelimit-limit': String(options.limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-used': String(options.limit - remaining),
      'x-ratelimit-reset': String(resetMs / 1000),
      'x-ratelimit-resource': 'core',
    });
    if (used >= options.limit) {
      ledger.refused++;
      if (options.style === 'github') {
        return ledger.refused % 2 === 1
          ? {
              status: 403,
              headers: github(0),
              body: { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/rate-limit' },
            }
          : {
              status: 429,
              headers: { 'retry-after': retryAfter },
              body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
            };
      }
      if (options.style === 'atlassian') {
        return { status: 429, headers: { 'retry-after': retryAfter, 'x-ratelimit-reset': new Date(resetMs).toISOString() }, body: 'Rate limit exceeded.' };
      }
      return { status: 429, headers: { 'retry-after': retryAfter }, body: { message: 'Rate limit exceeded' } };
    }
    spent.set(key, used + 1);
    ledger.admitted++;
    ledger.windows.add(window);
    ledger.mostInOneWindow = Math.max(ledger.mostInOneWindow, used + 1);
    const reply = options.ok(request);
    return options.style === 'github' ? { ...reply, headers: { ...reply.headers, ...github(options.limit - used - 1) } } : reply;
  });
  return ledger;
}
