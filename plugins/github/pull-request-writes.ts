import Type, { type Static } from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import { repoTarget } from './provenance.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { repoUrl, written, type GithubDeps } from './github-deps.js';
import { definedOnly, NumberOf, Owner, Repo, repoPath, write } from './shared-args.js';
import { mergeRefusal } from './write-refusals.js';
import { mergeResult, pullRequestResult, reviewResult } from './write-results.js';

// Pull requests: open one, review one, merge one. Each sends its `ctx.route`, the request policy decided on (and
// an approver saw), and answers with what it made or changed (write-results.ts).

// No maxLength: GitHub's own 422 names the limit, and each bound is paid for in every tools/list.
const Branch = (description: string): ReturnType<typeof Type.String> => Type.String({ minLength: 1, description });
const Markdown = Type.String({ minLength: 1, description: 'Markdown.' });

export const CreatePullRequestArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    title: Type.String({ minLength: 1 }),
    head: Branch('Branch with the changes; "user:branch" for a fork.'),
    base: Branch('Branch to merge into, e.g. "main".'),
    body: Type.Optional(Markdown),
    draft: Type.Optional(Type.Boolean({ description: 'Open as a draft (default false).' })),
  },
  { additionalProperties: false },
);

const ReviewComment = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'File path in the repository.' }),
    line: Type.Integer({ minimum: 1, description: "Line of the file's new version, within the diff." }),
    body: Markdown,
  },
  { additionalProperties: false },
);

export const CreateReviewArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    pullNumber: NumberOf('Pull request'),
    event: Type.Enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']),
    body: Type.Optional(Type.String({ minLength: 1, description: 'Markdown; required unless APPROVE.' })),
    comments: Type.Optional(Type.Array(ReviewComment, { maxItems: 100, description: 'Comments on lines of the diff.' })),
  },
  { additionalProperties: false },
);

export const MergeArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    pullNumber: NumberOf('Pull request'),
    method: Type.Optional(Type.Enum(['merge', 'squash', 'rebase'], { description: "Default: GitHub's, merge." })),
  },
  { additionalProperties: false },
);

export const CREATE_PULL_REQUEST = defineTool({
  name: 'github_create_pull_request',
  toolset: 'github.pull_requests',
  title: 'Open a GitHub pull request',
  description: 'Open a pull request from head into base (both must exist and differ). Result {data}: number, html_url, state, draft, head, base.',
  annotations: write(),
  provenance: { labels: false, target: repoTarget },
  input: CreatePullRequestArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof CreatePullRequestArgs>) => ({
    method: 'POST',
    path: `${repoPath(args)}/pulls`,
    body: definedOnly({ title: args.title, head: args.head, base: args.base, body: args.body, draft: args.draft }),
  }),
  handler: async (ctx, github: GithubDeps) => ({ value: pullRequestResult(await written(github, ctx)) }),
});

export const CREATE_REVIEW = defineTool({
  name: 'github_create_review',
  toolset: 'github.pull_requests',
  title: 'Review a GitHub pull request',
  description:
    'Submit a review of the latest commit: approve, request changes or comment, with optional comments on lines of the diff. Result {data}: id, state, html_url.',
  annotations: write(),
  provenance: { labels: false, target: repoTarget },
  input: CreateReviewArgs,
  envelope: ReadEnvelope,
  // A REQUEST_CHANGES or COMMENT review without a body is GitHub's to refuse (422, saying so): an argument error
  // is kept for what the published schema refuses, and "required unless APPROVE" is said in body's description.
  route: (args: Static<typeof CreateReviewArgs>) => ({
    method: 'POST',
    path: `${repoPath(args)}/pulls/${args.pullNumber}/reviews`,
    body: definedOnly({ event: args.event, body: args.body, comments: args.comments }),
  }),
  handler: async (ctx, github: GithubDeps) => ({
    value: reviewResult(await written(github, ctx), ctx.args.pullNumber, ctx.args.comments?.length ?? 0),
  }),
});

export const MERGE_PULL_REQUEST = defineTool({
  name: 'github_merge_pull_request',
  toolset: 'github.pull_requests',
  title: 'Merge a GitHub pull request',
  description:
    'Merge a pull request into its base branch; this cannot be undone. Result {data}: merged, sha, method. A pull request that cannot be merged (conflicts, required checks or reviews) is an error saying why.',
  annotations: write({ destructive: true }),
  provenance: { labels: false, target: repoTarget },
  input: MergeArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof MergeArgs>) => ({
    method: 'PUT',
    path: `${repoPath(args)}/pulls/${args.pullNumber}/merge`,
    body: definedOnly({ merge_method: args.method }),
  }),
  handler: async (ctx, github: GithubDeps) => {
    const { owner, repo, pullNumber, method } = ctx.args;
    const merged = await written(github, ctx).catch((error: unknown) => {
      throw mergeRefusal(error, `Pull request #${pullNumber} of ${owner}/${repo}`);
    });
    return { value: mergeResult(merged, pullNumber, method, `${repoUrl(github, ctx.args)}/pull/${pullNumber}`) };
  },
});
