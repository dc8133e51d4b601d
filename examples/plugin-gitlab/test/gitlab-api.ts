import { readFileSync } from 'node:fs';
import type { MockReply, MockUpstream, RecordedRequest } from 'mcp-devtools/testing';

/** The API prefix every GitLab REST path has; the mock serves under it, as gitlab.com does. */
export const API_PREFIX = '/api/v4';

/** A fixture in GitLab's wire format (shaped like the examples of GitLab's REST API docs). */
export function fixture<T = Record<string, unknown>[]>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../test/fixtures/${name}.json`, import.meta.url), 'utf8')) as T;
}

/**
 * One page of `items` as GitLab serves a list: the slice asked for by `page` and `per_page` (default 20),
 * with X-Page, X-Per-Page, X-Next-Page and X-Prev-Page (empty when there is none), X-Total, X-Total-Pages and
 * a Link header with prev, next, first and last.
 */
export function gitlabPage(mockUrl: string, request: RecordedRequest, items: readonly unknown[]): MockReply {
  const page = Number(request.query.get('page') ?? '1');
  const perPage = Number(request.query.get('per_page') ?? '20');
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const url = (p: number): string => {
    const query = new URLSearchParams(request.query);
    query.set('page', String(p));
    query.set('per_page', String(perPage));
    return `<${mockUrl}${request.path}?${query.toString()}>`;
  };
  const links = [
    ...(page > 1 ? [`${url(page - 1)}; rel="prev"`] : []),
    ...(page < totalPages ? [`${url(page + 1)}; rel="next"`] : []),
    `${url(1)}; rel="first"`,
    `${url(totalPages)}; rel="last"`,
  ];
  return {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'max-age=0, private, must-revalidate',
      etag: `W/"${page}-${perPage}-${items.length}"`,
      link: links.join(', '),
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': page < totalPages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      'x-total': String(items.length),
      'x-total-pages': String(totalPages),
    },
    body: items.slice((page - 1) * perPage, page * perPage),
  };
}

/** Serves the pipelines and pipeline-jobs fixtures at their GitLab paths, for any project. */
export function serveGitlab(mock: MockUpstream): void {
  mock.on('GET', `${API_PREFIX}/projects/:project/pipelines`, (request) => gitlabPage(mock.url, request, fixture('pipelines')));
  mock.on('GET', `${API_PREFIX}/projects/:project/pipelines/:pipelineId/jobs`, (request) => {
    const scope = request.query.get('scope');
    const jobs = fixture('pipeline-jobs').filter((job) => scope === null || job.status === scope);
    return gitlabPage(mock.url, request, jobs);
  });
}

/** GitLab's error bodies: `{"message": "404 Project Not Found"}` and the like. */
export function gitlabError(status: number, message: string, headers: Record<string, string> = {}): MockReply {
  return { status, headers, body: { message } };
}
