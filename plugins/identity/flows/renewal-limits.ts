import { nodeCrypto } from '../../../core/node-crypto.js';
import { ToolError, isToolError } from '../../../core/errors/tool-error.js';
import { rateLimitRetryAfter, retryWhen } from '../../../core/http/rate-limit.js';
import { VENDOR_NAMES, type LinkVendor } from '../../../core/identity/acting-identity.js';
import type { PreparedRequest, RateLimitedSite, RateLimits } from '../../../core/plugin/upstream-types.js';

/** A fetch for a flow's token renewals: the governed one (renewalFetch), or the plain one. */
export type RenewalFetch = typeof fetch;

/**
 * A fetch that sends a flow's token renewals through the rate-limit governor (core/http/rate-governor.ts). A
 * token endpoint keeps limits of its own, apart from the API's (GitHub: 2,000 token requests an hour per OAuth
 * app, on github.com, not the API's `x-ratelimit-*` budgets), so its budget is its own: keyed by the vendor, the
 * endpoint and the OAuth client (a fingerprint, never the secret), shared across workers and replicas through
 * the store. A 429 (or GitHub's rate-limit 403) there means the refresh token was not spent: within
 * MCP_RATE_LIMIT_MAX_WAIT_SECONDS it is waited out (with the governor's jitter) and sent again; beyond it, and
 * for every later renewal of that client until then, the renewal fails with `upstream_rate_limited` and when to
 * retry, nothing sent (the person's current token still serves while it has not expired, token-renewal.ts).
 */
export function renewalFetch(governor: RateLimits, vendor: LinkVendor, clientId: string): RenewalFetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const site = siteOf(vendor, url, clientId);
    const request: PreparedRequest = { method: (init?.method ?? 'POST').toUpperCase() as PreparedRequest['method'], path: url.pathname, url };
    const signal = init?.signal ?? new AbortController().signal;
    for (let limited = 0; ; limited++) {
      await governor.admit(site, request, signal);
      const response = await fetch(input, init);
      if (response.status !== 429 && response.status !== 403) return response;
      const text = await response.clone().text();
      const answer = { status: response.status, headers: response.headers, text };
      if (await governor.retryAfter(site.identity, request, answer, limited, signal)) continue;
      const now = Date.now();
      const refused = rateLimitRetryAfter(response.status, response.headers, now, () => text);
      if (refused === undefined) return response;
      throw new ToolError(
        'upstream_rate_limited',
        `${site.label} answered ${response.status} to a token renewal: rate limit exceeded. ${retryWhen(refused.seconds, now)}.`,
        refused.seconds === undefined ? {} : { retryAfterSeconds: refused.seconds },
      );
    }
  };
}

/** The governor's name for a token endpoint and client: its own budget, apart from any API credential's. */
function siteOf(vendor: LinkVendor, url: URL, clientId: string): RateLimitedSite {
  const fingerprint = nodeCrypto().createHash('sha256').update(`token-endpoint\0${url.origin}${url.pathname}\0${clientId}`).digest('hex').slice(0, 32);
  return {
    label: `${VENDOR_NAMES[vendor]}'s token endpoint`,
    identity: { vendor, credential: 'OAuth client', host: url.host, environment: 'production', fingerprint },
  };
}

/** The rate-limit refusal a renewal failed with (thrown by renewalFetch, maybe wrapped by the OAuth library), or undefined. */
export function renewalRateLimit(error: unknown): ToolError | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (isToolError(current) && current.code === 'upstream_rate_limited') return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
