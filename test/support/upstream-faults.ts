import type { MockReply } from '../../server/testing/mock-upstream.js';
import type { ErrorCode } from '../../core/errors/catalogue.js';

/**
 * How the server is limited in the fault tests: small enough to hit every limit quickly. Without the rate-limit
 * governor: each fault is one answer's error (a 429 within its bound would be waited out, a far one would hold
 * the cases after it; test/core/http/rate-limit-governor.test.ts is the governor's).
 */
export const FAULT_LIMITS = { MCP_REQUEST_TIMEOUT_MS: '400', MCP_MAX_RESPONSE_BYTES: '8192', MCP_UPSTREAM_RETRIES: '2', MCP_RATE_LIMIT_GOVERNOR: 'false' };
const RETRIES = 2;

/** One fault the vendor mock injects, and what a caller must see: the documented code and how many requests. */
export interface UpstreamFault {
  name: string;
  /** The mock's reply (the same every time); `evil` is the URL of an origin that must never be reached. */
  reply(evil: string): MockReply;
  /** The error code of docs/errors.md; undefined when the call must succeed. */
  code: ErrorCode | undefined;
  /** Requests one GET makes (retries included); writes always make exactly one. */
  getRequests: number;
  /** Text the error must contain. */
  says?: RegExp;
}

const html =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
const okBody = { items: [{ id: 'a7b2c3', state: 'created', number: 42 }], next_page_token: null };

export const UPSTREAM_FAULTS: readonly UpstreamFault[] = [
  {
    name: '500 Internal Server Error',
    reply: () => ({ status: 500, body: { message: 'Internal error' } }),
    code: 'upstream_server_error',
    getRequests: 1,
    says: /HTTP Status: 500/,
  },
  ...[502, 503, 504].map((status): UpstreamFault => ({
    name: `${status} every time (an HTML error page from the proxy)`,
    reply: () => ({ status, headers: { 'content-type': 'text/html' }, body: html }),
    code: 'upstream_server_error',
    getRequests: 1 + RETRIES,
    says: new RegExp(`HTTP Status: ${status}[^]*Raw API Response:\\n<!DOCTYPE html>`),
  })),
  {
    name: '429 with Retry-After: 17',
    reply: () => ({ status: 429, headers: { 'retry-after': '17' }, body: { message: 'Too Many Requests' } }),
    code: 'upstream_rate_limited',
    getRequests: 1,
    says: /Retry After: 17 seconds/,
  },
  {
    name: '429 without Retry-After',
    reply: () => ({ status: 429, body: { message: 'Too Many Requests' } }),
    code: 'upstream_rate_limited',
    getRequests: 1,
    says: /Wait a minute before retrying/,
  },
  {
    name: 'GitHub primary rate limit (403, x-ratelimit-remaining: 0, reset in 60 s)',
    reply: () => ({
      status: 403,
      headers: {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': '5000',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
        'x-ratelimit-resource': 'core',
      },
      body: { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
    }),
    code: 'upstream_rate_limited',
    getRequests: 1,
    says: /Retry After: (59|60|61) seconds/,
  },
  {
    name: 'GitHub secondary rate limit (403 with Retry-After: 60)',
    reply: () => ({
      status: 403,
      headers: { 'retry-after': '60', 'x-ratelimit-remaining': '4321' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      },
    }),
    code: 'upstream_rate_limited',
    getRequests: 1,
    says: /Retry After: 60 seconds/,
  },
  {
    name: '403 that is not a rate limit',
    reply: () => ({ status: 403, headers: { 'x-ratelimit-remaining': '4999' }, body: { message: 'Resource not accessible by personal access token' } }),
    code: 'upstream_http_error',
    getRequests: 1,
  },
  { name: 'connection reset before any header', reply: () => ({ reset: 'before-headers' }), code: 'upstream_unreachable', getRequests: 1 + RETRIES },
  {
    name: 'connection reset in the middle of the body',
    reply: () => ({ body: okBody, reset: 'mid-body' }),
    code: 'upstream_unreachable',
    getRequests: 1 + RETRIES,
  },
  {
    name: 'no answer within MCP_REQUEST_TIMEOUT_MS',
    reply: () => ({ body: okBody, delayMs: 1500 }),
    code: 'upstream_timeout',
    getRequests: 1,
    says: /within 400 ms/,
  },
  { name: 'a slow body dripping in 8 pieces', reply: () => ({ body: okBody, dripMs: 20, dripChunks: 8 }), code: undefined, getRequests: 1 },
  {
    name: 'truncated JSON with 200',
    reply: () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(okBody).slice(0, 30) }),
    code: 'upstream_invalid_body',
    getRequests: 1,
  },
  {
    name: 'an HTML login page with 200',
    reply: () => ({ headers: { 'content-type': 'text/html' }, body: '<html><body><form action="/login"></form></body></html>' }),
    code: 'upstream_invalid_body',
    getRequests: 1,
    says: /\(text\/html\)/,
  },
  {
    name: 'a body over MCP_MAX_RESPONSE_BYTES (Content-Length)',
    reply: () => ({ body: { pad: 'x'.repeat(20_000) } }),
    code: 'upstream_too_large',
    getRequests: 1,
  },
  {
    name: 'a body over MCP_MAX_RESPONSE_BYTES (chunked)',
    reply: () => ({ body: { pad: 'x'.repeat(20_000) }, dripMs: 1, dripChunks: 10 }),
    code: 'upstream_too_large',
    getRequests: 1,
  },
  {
    name: 'JSON nested 3,000 levels deep',
    reply: () => ({ body: `${'['.repeat(3000)}${']'.repeat(3000)}`, headers: { 'content-type': 'application/json' } }),
    code: 'upstream_invalid_body',
    getRequests: 1,
  },
  {
    name: 'a redirect to another origin',
    reply: (evil) => ({ status: 302, headers: { location: `${evil}/steal` } }),
    code: 'upstream_redirect_refused',
    getRequests: 1,
  },
  {
    name: 'a redirect to a scheme-relative URL on another origin',
    reply: (evil) => ({ status: 307, headers: { location: `//${new URL(evil).host}/steal` } }),
    code: 'upstream_redirect_refused',
    getRequests: 1,
  },
];
