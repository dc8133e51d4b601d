import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { CursorEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { page, type BitbucketDeps } from './bitbucket-deps.js';
import { Cursor, pagingFromCursor } from './page-cursor.js';
import { pullRequestDiffText } from './pull-request-diff.js';
import { PullRequestId, READ, repoPath, RepoSlug, Workspace } from './repo-args.js';
import { createdComment, type CommentBody } from './write-results.js';
import { createdDataCenterComment, dataCenterCommentBody, dataCenterState, startFromCursor, type DataCenterCommentBody } from './data-center-pull-requests.js';
import { dataCenterRepoPath, onDataCenter } from './deployment.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { wholeResult } from '../../core/plugin/provenance.js';
import { bitbucketRepo, pullRequestLabels, REPOSITORY_LOOKUP } from './provenance.js';

// Bitbucket pull requests: list, read the diff, comment. Cloud's API 2.0; Data Center's REST API 1.0 for the list
// and the comment (its workspace is a project key).

export const ListPullRequestsArgs = Type.Object(
  {
    workspace: Workspace,
    repoSlug: RepoSlug,
    state: Type.Optional(Type.Enum(['OPEN', 'MERGED', 'DECLINED', 'SUPERSEDED'], { description: 'Default OPEN.' })),
    cursor: Cursor,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const DiffArgs = Type.Object({ workspace: Workspace, repoSlug: RepoSlug, pullRequestId: PullRequestId }, { additionalProperties: false });
export type DiffArgs = Static<typeof DiffArgs>;

export const CommentArgs = Type.Object(
  {
    workspace: Workspace,
    repoSlug: RepoSlug,
    pullRequestId: PullRequestId,
    body: Type.String({ minLength: 1, description: 'Markdown.' }),
    path: Type.Optional(Type.String({ minLength: 1, description: 'File for an inline comment.' })),
    line: Type.Optional(Type.Integer({ minimum: 1, description: 'Line of path (new version).' })),
    ...renderingArgs,
  },
  // A line is a line of a file: `dependentRequired` for JSON Schema 2020-12 (MCP's dialect), `dependencies` for
  // validators of draft 7; the server checks both.
  { additionalProperties: false, dependentRequired: { line: ['path'] }, dependencies: { line: ['path'] } },
);

export type CommentArgs = Static<typeof CommentArgs>;

export function commentBody(args: CommentArgs): CommentBody {
  if (args.line !== undefined && args.path === undefined)
    throw new ToolError(
      'invalid_arguments',
      'line needs path: give the file the line is in (path), or leave line out for a comment on the whole pull request.',
    );
  const body: CommentBody = { content: { raw: args.body } };
  if (args.path !== undefined) body.inline = args.line === undefined ? { path: args.path } : { path: args.path, to: args.line };
  return body;
}

const pullRequestPath = (args: DiffArgs): string => `${repoPath(args)}/pullrequests/${args.pullRequestId}`;

export const LIST_PULL_REQUESTS = defineTool({
  name: 'bb_list_pull_requests',
  title: 'List Bitbucket pull requests',
  description:
    "A repository's pull requests. Result {data, nextCursor}: Bitbucket's page; for more pass nextCursor as cursor, same arguments. " +
    'jq e.g. "values[*].{id: id, title: title, branch: source.branch.name}".',
  annotations: READ,
  input: ListPullRequestsArgs,
  envelope: CursorEnvelope,
  toolset: 'bitbucket.pull_requests',
  provenance: { labels: true },
  further: [REPOSITORY_LOOKUP],
  route: (args: Static<typeof ListPullRequestsArgs>, upstream?: UpstreamBinding) =>
    onDataCenter(upstream)
      ? { method: 'GET', path: `${dataCenterRepoPath(args)}/pull-requests`, query: { state: dataCenterState(args.state), ...startFromCursor(args.cursor) } }
      : { method: 'GET', path: `${repoPath(args)}/pullrequests`, query: { state: args.state, ...pagingFromCursor(args.cursor) } },
  handler: async (ctx, bitbucket: BitbucketDeps) => {
    const found = await page(bitbucket, ctx);
    // Data Center's page and people differ; it is labelled whole (untrusted, private) until read item by item.
    const provenance = onDataCenter(bitbucket.upstream)
      ? wholeResult(
          `${ctx.args.workspace}/${ctx.args.repoSlug} pull requests`,
          bitbucketRepo(ctx.args),
          'Data Center pull requests are not labelled one by one',
        )
      : await pullRequestLabels(bitbucket.upstream, ctx, ctx.args, found.value);
    return { ...found, provenance };
  },
});

export const GET_PULL_REQUEST_DIFF = defineTool({
  name: 'bb_get_pull_request_diff',
  title: 'Get the diff of a Bitbucket pull request',
  description:
    'A pull request\'s unified diff (against the merge base), as text. A long diff is cut and saved whole as an artifact the result names (artifact_read, encoding "utf8").',
  annotations: READ,
  input: DiffArgs,
  savesArtifacts: true,
  provenance: { labels: true },
  toolset: 'bitbucket.pull_requests',
  // The pull request first: its commits name the diff (Bitbucket's own /diff redirect uses a form no path check lets through).
  route: (args: DiffArgs, upstream?: UpstreamBinding) => {
    if (onDataCenter(upstream))
      throw new ToolError(
        'invalid_arguments',
        `bb_get_pull_request_diff reads Bitbucket Cloud's diff; on Data Center read GET /rest/api/1.0${dataCenterRepoPath(args)}/pull-requests/${args.pullRequestId}/diff. Nothing was sent.`,
      );
    return { method: 'GET', path: pullRequestPath(args) };
  },
  // Then the diff between its commits (a fork's names its repository, so the spec may span segments).
  further: (args: DiffArgs) => [{ method: 'GET', path: `${repoPath(args)}/diff/**` }],
  // A diff does not name its author: untrusted, as GitHub's; its text is fenced whole.
  handler: async (ctx, bitbucket: BitbucketDeps) => ({
    text: await pullRequestDiffText(ctx, bitbucket.upstream, bitbucket),
    provenance: wholeResult(
      `${ctx.args.workspace}/${ctx.args.repoSlug} PR ${ctx.args.pullRequestId} (diff)`,
      bitbucketRepo(ctx.args),
      'a diff does not name its author',
    ),
  }),
});

export const ADD_PULL_REQUEST_COMMENT = defineTool({
  provenance: { labels: false, target: bitbucketRepo },
  name: 'bb_add_pull_request_comment',
  title: 'Comment on a Bitbucket pull request',
  description: 'Comment on a pull request; with path (and line), inline. Result {data}: {id, url, inline}.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: CommentArgs,
  envelope: ReadEnvelope,
  toolset: 'bitbucket.pull_requests',
  route: (args: CommentArgs, upstream?: UpstreamBinding) =>
    onDataCenter(upstream)
      ? { method: 'POST', path: `${dataCenterRepoPath(args)}/pull-requests/${args.pullRequestId}/comments`, body: dataCenterCommentBody(commentBody(args)) }
      : { method: 'POST', path: `${pullRequestPath(args)}/comments`, body: commentBody(args) },
  handler: async (ctx, bitbucket: BitbucketDeps) => {
    const response = await bitbucket.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    const body = ctx.route.body as CommentBody | DataCenterCommentBody;
    return { value: 'text' in body ? createdDataCenterComment(response, ctx.args, body) : createdComment(response, ctx.args, body) };
  },
});
