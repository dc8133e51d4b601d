import type { MockReply, MockUpstream, RecordedRequest } from 'mcp-devtools/testing';

/** The API prefix of every Sentry path; the mock serves under it, as sentry.io does. */
export const API_PREFIX = '/api/0';

/** Issues shaped like those of Sentry's API reference (List a Project's Issues). */
export const ISSUES = Array.from({ length: 5 }, (_, i) => ({
  id: String(4500 + i),
  shortId: `WEB-${i + 1}`,
  title: i === 2 ? 'TypeError: Cannot read properties of undefined (reading \'naïve\')' : `Error ${i + 1}`,
  culprit: 'app/checkout.ts in submit',
  level: i % 2 === 0 ? 'error' : 'warning',
  status: 'unresolved',
  count: String(10 * (i + 1)),
  userCount: i,
  permalink: `https://acme.sentry.io/issues/${4500 + i}/`,
  lastSeen: `2026-11-30T0${i}:00:00.000Z`,
}));

/** Sentry's cursor format, `<time>:<offset>:<is previous>`. */
const cursorAt = (offset: number, previous: boolean): string => `1700000000000:${offset}:${previous ? 1 : 0}`;

/**
 * One page of `items` as Sentry serves a list: the page the `cursor` names (2 items a page here), with a
 * previous and a next link each carrying `results` (whether there is anything there) and `cursor`.
 */
export function sentryPage(mockUrl: string, request: RecordedRequest, items: readonly unknown[], perPage = 2): MockReply {
  const offset = Number((request.query.get('cursor') ?? cursorAt(0, false)).split(':')[1] ?? '0');
  const link = (rel: 'previous' | 'next', at: number, results: boolean): string => {
    const cursor = cursorAt(Math.max(0, at), rel === 'previous');
    return `<${mockUrl}${request.path}?&cursor=${cursor}>; rel="${rel}"; results="${results}"; cursor="${cursor}"`;
  };
  return {
    headers: { 'content-type': 'application/json', link: [link('previous', offset - perPage, offset > 0), link('next', offset + perPage, offset + perPage < items.length)].join(', ') },
    body: items.slice(offset, offset + perPage),
  };
}

export function serveSentry(mock: MockUpstream): void {
  mock.on('GET', `${API_PREFIX}/projects/:organization/:project/issues/`, (request) => sentryPage(mock.url, request, ISSUES));
  mock.on('GET', `${API_PREFIX}/organizations/:organization/issues/:id/`, (request) => ({ body: ISSUES.find((i) => i.id === request.params.id) ?? {}, status: ISSUES.some((i) => i.id === request.params.id) ? 200 : 404 }));
}
