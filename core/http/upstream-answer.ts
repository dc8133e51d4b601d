import type { AnyToolContext } from '../plugin/tool-context.js';
import type { PreparedRequest, UpstreamResponse } from '../plugin/upstream-types.js';
import { decodedTextBytes } from '../text/large-string.js';
import { MAX_BODY_DEPTH, parseBody, refuseTooDeep, type BodyExpectation } from './parse-body.js';
import { parseJsonBytes, parsesInPieces } from './parse-json-bytes.js';
import type { PooledResponse } from './pooled-request.js';
import { bomLength, decodeBody, readBodyCapped, readBytesCapped } from './read-body.js';
import type { RequestDeadline } from './request-deadline.js';
import { rateLimitRetryAfter } from './rate-limit.js';
import { statusError, type ErrorAnswer } from './upstream-errors.js';
import type { SendOptions } from './upstream-options.js';
import type { UpstreamSite } from './upstream-site.js';

/** An answer as read off the network, before its status decides what it is. */
export interface RawAnswer extends ErrorAnswer {
  /** The body of a `binary` request. */
  bytes?: Buffer;
  /** A successful body that parsesInPieces: parsed from these bytes, `text` decoded only when read. */
  big?: Buffer;
}

/**
 * Reads the body of an answer that is not a redirect, capped at `maxBytes` as it arrives and taken from the
 * call's share of the in-flight body budget: a `binary` success as bytes, any other success as bytes whose text
 * is decoded now when small and only when asked when big, anything else (an error's body) as text.
 */
export async function readAnswer(
  ctx: AnyToolContext,
  site: UpstreamSite,
  response: PooledResponse,
  deadline: RequestDeadline,
  options: SendOptions,
): Promise<RawAnswer> {
  const { maxBytes, label } = site.options;
  const what = `The ${label} response`;
  const head = { status: response.status, statusText: response.statusText, headers: response.headers };
  const progress = options.progress;
  const onRead = progress === undefined ? undefined : (read: number, size?: number): void => ctx.progress(read, size, progress);
  if (options.binary && response.status < 300) {
    const bytes = await readBytesCapped(response, maxBytes, what, ctx.bodyLease, deadline, onRead);
    return { ...head, text: '', bytes };
  }
  if (response.status < 300 && response.status !== 204) {
    const bytes = await readBytesCapped(response, maxBytes, what, ctx.bodyLease, deadline, onRead);
    const textBytes = decodedTextBytes(bytes);
    if (ctx.bodyLease !== undefined) ctx.bodyLease.textBytes += textBytes;
    return rawAnswer(head, bytes, textBytes);
  }
  return { ...head, text: await readBodyCapped(response, maxBytes, what, ctx.bodyLease, deadline) };
}

/**
 * What the caller gets from an answer: an error status throws its error; a 304 is empty; bytes stay bytes;
 * a body is parsed as `expect` says (a big one from its bytes, its text decoded only if something asks).
 */
export function acceptAnswer(site: UpstreamSite, answer: RawAnswer, request: PreparedRequest, expect: BodyExpectation): UpstreamResponse {
  const { status, headers } = answer;
  if (status >= 400) throw statusError(site, answer, request);
  // GitHub's GraphQL rate limit answers 200 with `errors` RATE_LIMITED: a rate limit like a 429, not a query's error.
  if (request.graphql !== undefined && rateLimitRetryAfter(status, headers, Date.now(), () => answer.text, true) !== undefined)
    throw statusError(site, answer, request);
  if (status === 304) return { status, headers, body: undefined, kind: 'empty', text: '' };
  if (answer.bytes !== undefined) return { status, headers, body: answer.bytes, kind: 'bytes', text: '' };
  const what = `${site.options.label} (${request.method} ${request.path})`;
  const big = answer.big !== undefined && expect !== 'text' ? parseJsonBytes(answer.big, bomLength(answer.big)) : undefined;
  if (big !== undefined) {
    // Parsed from the bytes; the text is made only if something asks for it (the HTTP cache storing it).
    // The scan counted the brackets: the value is walked only when they could go past the limit.
    if (big.nesting > MAX_BODY_DEPTH) refuseTooDeep(big.value, status, what);
    return Object.defineProperty({ status, headers, body: big.value, kind: 'json' }, 'text', textOf(answer)) as UpstreamResponse;
  }
  const { text } = answer;
  const parsed = parseBody(status, headers.get('content-type'), text, expect, what);
  return { status, headers, text, ...parsed };
}

/** A successful answer: a big body keeps its bytes and decodes its text only when asked; a small one is decoded now. */
function rawAnswer(head: Pick<RawAnswer, 'status' | 'statusText' | 'headers'>, bytes: Buffer, textBytes: number): RawAnswer {
  if (!parsesInPieces(textBytes)) return { ...head, text: decodeBody(bytes) };
  return Object.defineProperty({ ...head, big: bytes }, 'text', textOf({ big: bytes })) as RawAnswer;
}

/** An enumerable `text` that decodes a big body once, when first read (a spread copy reads it). */
function textOf(answer: { big?: Buffer }): PropertyDescriptor {
  const bytes = answer.big!;
  let text: string | undefined;
  return { enumerable: true, configurable: true, get: () => (text ??= decodeBody(bytes)) };
}
