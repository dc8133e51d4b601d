import Type from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';

/**
 * Bitbucket pages a list with a `next` URL. The caller gets a cursor instead: that URL's `page` value alone (a
 * number on most lists, a token on some). The host and the path of every request come from the tool's arguments,
 * never from a cursor, and the cursor's shape is checked by the input schema, so one that was edited or forged can
 * only ask for another page of the same list: never another host, path or query parameter.
 */
const PAGE = /^[\w.~-]{1,200}$/;

/** The `cursor` argument: only the characters a page value has. */
export const Cursor = Type.Optional(Type.String({ pattern: PAGE.source, description: 'nextCursor of the previous page.' }));

/** The cursor for the page Bitbucket's `next` names; null when there is no next page (or `next` names no page). */
export function cursorFromNext(next: unknown): string | null {
  if (typeof next !== 'string' || next === '') return null;
  let page: string | null;
  try {
    page = new URL(next, 'https://next.invalid').searchParams.get('page');
  } catch {
    return null;
  }
  return page !== null && PAGE.test(page) ? page : null;
}

/** The query parameter a cursor stands for; no cursor is the first page. */
export function pagingFromCursor(cursor: string | undefined): { page?: string } {
  if (cursor === undefined) return {};
  // The schema already refused any other shape: this guards a route computed without it.
  if (!PAGE.test(cursor))
    throw new ToolError('invalid_arguments', 'cursor is not a nextCursor this tool gave: pass it unchanged, or leave it out for the first page.');
  return { page: cursor };
}
