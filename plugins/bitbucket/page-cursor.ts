import { ToolError } from '../../core/errors/tool-error.js';

/**
 * Bitbucket pages a list with a `next` URL. The caller gets an opaque cursor instead, made of that URL's paging
 * parameters alone (`page`, `pagelen`): the host and the path of every request come from the tool's arguments,
 * never from a cursor, so a cursor that was edited or forged cannot point the server anywhere else. A cursor is
 * checked when it comes back: anything but those parameters, with values of their shape, is refused.
 */

/** What a cursor may carry, and the shape of each value (`page` is a number on most lists, a token on some). */
const PAGING: ReadonlyMap<string, RegExp> = new Map([
  ['page', /^[A-Za-z0-9._~-]{1,200}$/],
  ['pagelen', /^(?:[1-9][0-9]?|100)$/],
]);

/** The paging query parameters a cursor carries, to send with the tool's own path and filters. */
export type Paging = Partial<Record<'page' | 'pagelen', string>>;

/** The cursor for the page Bitbucket's `next` names; null when there is no next page (or `next` names no page). */
export function cursorFromNext(next: unknown): string | null {
  if (typeof next !== 'string' || next === '') return null;
  let url: URL;
  try {
    url = new URL(next, 'https://next.invalid');
  } catch {
    return null;
  }
  const kept = new URLSearchParams();
  for (const [key, shape] of PAGING) {
    const value = url.searchParams.get(key);
    if (value !== null && shape.test(value)) kept.set(key, value);
  }
  return kept.has('page') ? Buffer.from(kept.toString(), 'utf8').toString('base64url') : null;
}

/** The paging parameters of a cursor this tool gave; no cursor is the first page. */
export function pagingFromCursor(cursor: string | undefined): Paging {
  if (cursor === undefined) return {};
  const refuse = (): never => {
    throw new ToolError(
      'invalid_arguments',
      `The cursor ${JSON.stringify(cursor.slice(0, 80))} is not one this tool gave: pass the nextCursor of the previous result unchanged, with the same other arguments, or leave cursor out for the first page.`,
    );
  };
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) refuse();
  const params = new URLSearchParams(Buffer.from(cursor, 'base64url').toString('utf8'));
  const paging: Paging = {};
  for (const [key, value] of params) {
    const shape = PAGING.get(key);
    if (shape === undefined || !shape.test(value) || paging[key as keyof Paging] !== undefined) refuse();
    paging[key as keyof Paging] = value;
  }
  if (paging.page === undefined) refuse();
  return paging;
}
