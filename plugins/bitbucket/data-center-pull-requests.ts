import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamResponse } from '../../core/plugin/upstream-types.js';
import { pagingFromCursor } from './page-cursor.js';
import type { CommentBody } from './write-results.js';

/*
 * Pull requests on Bitbucket Data Center (REST API 1.0): pages start at `start` (the `nextPageStart` of the last
 * page, which is the cursor given back), states are OPEN, MERGED, DECLINED (or ALL), and a comment is `{text}`,
 * anchored to a file's line in the pull request's effective diff.
 */

/** Data Center's state filter for a Cloud state; SUPERSEDED exists only on Cloud. */
export function dataCenterState(state: string | undefined): string | undefined {
  if (state !== 'SUPERSEDED') return state;
  throw new ToolError('invalid_arguments', 'state SUPERSEDED exists only on Bitbucket Cloud; on Data Center use OPEN, MERGED or DECLINED. Nothing was sent.');
}

/** The `start` query parameter a cursor stands for on Data Center (the cursor is checked as on Cloud). */
export function startFromCursor(cursor: string | undefined): { start?: string } {
  const { page } = pagingFromCursor(cursor);
  if (page === undefined) return {};
  if (!/^\d+$/.test(page))
    throw new ToolError('invalid_arguments', 'cursor is not a nextCursor this tool gave: pass it unchanged, or leave it out for the first page.');
  return { start: page };
}

/** Data Center's comment body: the Markdown as `text`, an anchor for an inline comment. */
export interface DataCenterCommentBody {
  text: string;
  anchor?: { path: string; diffType: 'EFFECTIVE'; line?: number; lineType?: 'ADDED'; fileType?: 'TO' };
}

export function dataCenterCommentBody(cloud: CommentBody): DataCenterCommentBody {
  const body: DataCenterCommentBody = { text: cloud.content.raw };
  const inline = cloud.inline;
  if (inline !== undefined)
    body.anchor =
      inline.to === undefined
        ? { path: inline.path, diffType: 'EFFECTIVE' }
        : { path: inline.path, diffType: 'EFFECTIVE', line: inline.to, lineType: 'ADDED', fileType: 'TO' };
  return body;
}

const field = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);

/** The comment made, in the shape of a Cloud one: `{id, url, pullRequestId, inline, createdOn}` (Data Center gives no link). */
export function createdDataCenterComment(response: UpstreamResponse, args: { pullRequestId: number }, sent: DataCenterCommentBody): Record<string, unknown> {
  const created = field(response.body, 'createdDate');
  const anchor = sent.anchor;
  return {
    id: field(response.body, 'id') ?? null,
    url: null,
    pullRequestId: args.pullRequestId,
    inline: anchor === undefined ? null : anchor.line === undefined ? { path: anchor.path } : { path: anchor.path, to: anchor.line },
    createdOn: typeof created === 'number' ? new Date(created).toISOString() : null,
  };
}
