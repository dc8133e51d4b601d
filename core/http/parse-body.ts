import { ToolError } from '../errors/tool-error.js';
import { nestsDeeperThan } from '../schema/argument-depth.js';
import type { BodyKind } from '../plugin/upstream-types.js';

/**
 * How deeply a response body may nest. No API answers with hundreds of levels; a body that does would overflow
 * the stack of projection and rendering, and be reported as a plugin crash instead of a bad upstream answer.
 */
export const MAX_BODY_DEPTH = 512;

/**
 * How a successful body is read:
 * - `json`: the endpoint promises JSON; an empty, `null` or non-JSON body is an error, never a result that
 *   looks successful;
 * - `lenient`: the Atlassian reference semantics: 204 or a blank body is empty, JSON is parsed, anything else
 *   stays a string;
 * - `text`: kept as text (logs, diffs).
 */
export type BodyExpectation = 'json' | 'lenient' | 'text';

export function parseBody(status: number, contentType: string | null, text: string, expect: BodyExpectation, what: string): { body: unknown; kind: BodyKind } {
  const blank = status === 204 || text.trim() === '';
  if (expect === 'text') return blank ? { body: '', kind: 'empty' } : { body: text, kind: 'text' };
  if (expect === 'lenient') {
    if (blank) return { body: undefined, kind: 'empty' };
    let lenientBody: unknown;
    try {
      lenientBody = JSON.parse(text);
    } catch {
      return { body: text, kind: 'text' };
    }
    refuseTooDeep(lenientBody, status, what);
    return { body: lenientBody, kind: 'json' };
  }
  if (blank) throw new ToolError('upstream_empty_body', `${what} answered ${status} with an empty body where JSON was expected.`, { status });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const type = contentType ? ` (${contentType.split(';')[0]})` : '';
    throw new ToolError('upstream_invalid_body', `${what} answered ${status} with a body that is not JSON${type}. The API may be behind a proxy or down.`, {
      status,
      upstreamBody: text,
    });
  }
  if (body === null) throw new ToolError('upstream_empty_body', `${what} answered ${status} with a null body where JSON was expected.`, { status });
  refuseTooDeep(body, status, what);
  return { body, kind: 'json' };
}

/** Refuses a parsed body nested deeper than MAX_BODY_DEPTH (the same error however it was parsed). */
export function refuseTooDeep(body: unknown, status: number, what: string): void {
  if (!nestsDeeperThan(body, MAX_BODY_DEPTH)) return;
  throw new ToolError(
    'upstream_invalid_body',
    `${what} answered ${status} with JSON nested more than ${MAX_BODY_DEPTH} levels deep, which no API sends; it was not rendered. The API may be misbehaving.`,
    { status },
  );
}
