import { ToolError } from '../errors/tool-error.js';
import type { BodyKind } from './types.js';

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
    try {
      return { body: JSON.parse(text), kind: 'json' };
    } catch {
      return { body: text, kind: 'text' };
    }
  }
  if (blank) throw new ToolError('upstream_empty_body', `${what} answered ${status} with an empty body where JSON was expected.`, { status });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const type = contentType ? ` (${contentType.split(';')[0]})` : '';
    throw new ToolError('upstream_invalid_body', `${what} answered ${status} with a body that is not JSON${type}. The API may be behind a proxy or down.`, { status, upstreamBody: text });
  }
  if (body === null) throw new ToolError('upstream_empty_body', `${what} answered ${status} with a null body where JSON was expected.`, { status });
  return { body, kind: 'json' };
}
