import { ToolError, isToolError } from '../errors/tool-error.js';
import type { PreparedRequest } from '../plugin/upstream-types.js';
import { unreachableMessage } from './connection-failure.js';
import { egressRefusalIn } from './egress-guard.js';
import { rateLimitRetryAfter, retryWhen } from './rate-limit.js';
import { statusHint } from './status-hints.js';
import type { UpstreamSite } from './upstream-site.js';

/** An answer of an error status, its body read as text (the error carries it, capped when shown). */
export interface ErrorAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/**
 * The error of an answer with a 4xx or 5xx status (or GitHub's GraphQL rate limit, a 200): the status and its
 * reason, what to try next, and when the vendor says it is rate-limited, when to retry.
 */
export function statusError(site: UpstreamSite, answer: ErrorAnswer, request: PreparedRequest): ToolError {
  const { status, headers, text } = answer;
  const { label } = site.options;
  const now = Date.now();
  const limited = rateLimitRetryAfter(status, headers, now, () => text, request.graphql !== undefined);
  const what =
    status < 400
      ? `${label} answered ${request.method} ${request.path} with its GraphQL rate limit (RATE_LIMITED)`
      : `${label} answered ${status}${answer.statusText ? ` ${answer.statusText}` : ''} for ${request.method} ${request.path}`;
  if (limited !== undefined) {
    return new ToolError('upstream_rate_limited', `${what}: rate limit exceeded. ${retryWhen(limited.seconds, now)}.`, {
      status,
      upstreamBody: text,
      retryAfterSeconds: limited.seconds,
    });
  }
  const code = status >= 500 ? 'upstream_server_error' : 'upstream_http_error';
  return new ToolError(code, `${what}. ${statusHint(status, site.identity.credential)}`, { status, upstreamBody: text });
}

/**
 * Whatever stopped a request without an answer, as the error a caller can act on: refused by the egress
 * guard, cancelled by the caller, timed out (naming the setting), or unreachable (with what the low-level code
 * means). A ToolError is already one.
 */
export function requestError(site: UpstreamSite, error: unknown, request: PreparedRequest, signal: AbortSignal): ToolError {
  if (isToolError(error)) return error;
  const { label, timeoutMs, timeoutSetting } = site.options;
  const egress = egressRefusalIn(error);
  if (egress !== undefined) {
    return new ToolError('egress_refused', `${label}: ${request.method} ${request.path} was not sent: ${egress.message}.`);
  }
  if (signal.aborted) return new ToolError('cancelled', `The ${label} request ${request.method} ${request.path} was cancelled.`);
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ToolError(
      'upstream_timeout',
      `${label} did not answer ${request.method} ${request.path} within ${timeoutMs} ms (${timeoutSetting ?? 'MCP_REQUEST_TIMEOUT_MS'}). Try again, or ask for less.`,
    );
  }
  return new ToolError('upstream_unreachable', unreachableMessage(label, request, site.base.origin, error), { cause: error });
}
