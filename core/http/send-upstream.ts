import type { AnyToolContext } from '../plugin/tool-context.js';
import type { PreparedRequest, RateLimitedSite, RateLimits, UpstreamResponse } from '../plugin/upstream-types.js';
import type { pooledRequest as PooledRequestFn } from './pooled-request.js';
import { discardBody } from './read-body.js';
import { RequestDeadline } from './request-deadline.js';
import { RETRYABLE_STATUSES, backoffMs, networkErrorCode, sleep } from './retry-policy.js';
import { acceptAnswer, readAnswer, type RawAnswer } from './upstream-answer.js';
import { requestError } from './upstream-errors.js';
import type { SendOptions } from './upstream-options.js';
import { MAX_REDIRECTS, firstHop, isRedirect, nextHop, tooManyRedirects } from './upstream-redirects.js';
import type { UpstreamSite } from './upstream-site.js';

/** The pooled undici client, loaded on the first upstream request (its own chunk: start-up does not load it). */
let pooled: Promise<typeof PooledRequestFn> | undefined;
const loadPooledRequest = (): Promise<typeof PooledRequestFn> => (pooled ??= import('./pooled-request.js').then((m) => m.pooledRequest));

/**
 * Sends a prepared request to the network and accepts its answer, timed into the call's `network` phase:
 * reads (a GET, a GraphQL query) retried on a retryable status or a network error, with backoff; a write never,
 * since it may have been done. The rate-limit governor (ctx.rateLimits, rate-governor.ts) admits each attempt and
 * hears each answer: a rate-limit refusal it can wait out is sent again, a write too, since the vendor refused
 * it before doing it. Each attempt is observed (timed, traced) on its own.
 */
export async function sendUpstream(
  ctx: AnyToolContext,
  site: UpstreamSite,
  request: PreparedRequest,
  auth: Record<string, string>,
  options: SendOptions,
): Promise<UpstreamResponse> {
  const started = performance.now();
  const { vendor } = site.options;
  const retries = request.method === 'GET' || request.graphql?.operation === 'query' ? site.options.retries : 0;
  // Loaded before the first request is timed: loading our own HTTP client is no part of the vendor's latency.
  await loadPooledRequest();
  const limits = ctx.rateLimits;
  const governed = { identity: site.identity, label: site.options.label };
  // Rate-limit answers waited out and sent again: apart from `retries`, which are for failures.
  let limitedRetries = 0;
  try {
    for (let attempt = 0; ; attempt++) {
      if (limits !== undefined) await admitted(limits, ctx, site, governed, request);
      // The request id and the trace context go with the credentials: to the vendor's origin, never along a
      // redirect elsewhere.
      const observed = ctx.observeRequest?.(request, site.identity, attempt);
      try {
        const answer = await exchange(ctx, site, request, { ...auth, ...requestIdHeader(ctx, site), ...observed?.headers }, options);
        observed?.end({ status: answer.status, headers: answer.headers });
        // A 429 (or GitHub's rate-limit 403) was refused before it was done: a write too may go again.
        if (limits !== undefined && (await limits.retryAfter(site.identity, request, answer, limitedRetries, ctx.signal))) {
          limitedRetries++;
          ctx.logger.debug({ vendor, status: answer.status, attempt }, 'sending an upstream request again after its rate limit');
          continue;
        }
        if (attempt - limitedRetries < retries && RETRYABLE_STATUSES.has(answer.status)) {
          ctx.logger.debug({ vendor, status: answer.status, attempt }, 'retrying upstream read');
          await sleep(backoffMs(attempt - limitedRetries), ctx.signal);
          continue;
        }
        return acceptAnswer(site, answer, request, options.expect ?? site.options.expect ?? 'json');
      } catch (error) {
        const failure = requestError(site, error, request, ctx.signal);
        observed?.end({ error: failure });
        if (attempt - limitedRetries < retries && networkErrorCode(error) !== undefined && !ctx.signal.aborted) {
          ctx.logger.debug({ vendor, code: networkErrorCode(error), attempt }, 'retrying upstream read');
          await sleep(backoffMs(attempt - limitedRetries), ctx.signal);
          continue;
        }
        throw failure;
      }
    }
  } finally {
    ctx.time('network', (performance.now() - started) * 1000);
  }
}

/** The governor's go-ahead; a wait the caller cancels ends as the request's cancellation. */
async function admitted(limits: RateLimits, ctx: AnyToolContext, site: UpstreamSite, governed: RateLimitedSite, request: PreparedRequest): Promise<void> {
  try {
    await limits.admit(governed, request, ctx.signal);
  } catch (error) {
    throw requestError(site, error, request, ctx.signal);
  }
}

/** The call's request id under the header this vendor takes it in (X-Request-Id unless the client names another, or none). */
function requestIdHeader(ctx: AnyToolContext, site: UpstreamSite): Record<string, string> {
  const header = site.options.requestIdHeader ?? 'x-request-id';
  return header === false || ctx.requestId === undefined ? {} : { [header]: ctx.requestId };
}

/**
 * One attempt: the request and the redirects it is decided to follow (upstream-redirects.ts), within the
 * request's deadline (which the caller's cancellation ends too), up to the answer that is not a redirect.
 */
async function exchange(
  ctx: AnyToolContext,
  site: UpstreamSite,
  request: PreparedRequest,
  auth: Record<string, string>,
  options: SendOptions,
): Promise<RawAnswer> {
  const { timeoutMs, headers: always } = site.options;
  const deadline = new RequestDeadline(timeoutMs, () => new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  const cancel = (): void => deadline.abort(ctx.signal.reason);
  if (ctx.signal.aborted) cancel();
  else ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    // A client whose base URL an upstream gave is guarded from its first request; any other from its first
    // foreign hop on. Guarded, each connection is judged where it is made (egress-connector.ts).
    let hop = firstHop(site, request);
    for (let hops = 0; hops <= MAX_REDIRECTS; hops++) {
      const headers: Record<string, string> = { ...always, ...(hop.withAuth ? auth : {}) };
      if (request.body !== undefined || options.rawBody !== undefined) headers['content-type'] = options.rawBody?.contentType ?? 'application/json';
      const send = await loadPooledRequest();
      const response = await send(hop.url, {
        method: request.method,
        headers,
        body: options.rawBody?.bytes ?? request.body,
        signal: deadline.signal,
        ...(hop.egress ? { egress: hop.egress } : {}),
      });
      const location = response.headers.get('location');
      if (!isRedirect(response.status, location)) return await readAnswer(ctx, site, response, deadline, options);
      discardBody(response);
      hop = nextHop(ctx, site, request, hop, location, response.status, options);
    }
    throw tooManyRedirects(site, request);
  } finally {
    deadline.clear();
    ctx.signal.removeEventListener('abort', cancel);
  }
}
