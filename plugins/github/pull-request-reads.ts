import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { PagedEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { page, type GithubDeps } from './github-deps.js';
import { diffText } from './pull-request-diff.js';
import { compactPullRequest } from './pull-request-shape.js';
import { diffLabel, pullRequestItems, VISIBILITY_LOOKUP } from './provenance.js';
import { NumberOf, Owner, Page, PAGE_NOTE, PerPage, READ, Repo, repoPath, State } from './shared-args.js';
import { advisedTool } from '../../core/plugin/tool-context.js';

// Pull requests, as read: listed, one by one, and as a diff (the reads an agent needs around a red build).

export const ListPullRequestsArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    state: State,
    head: Type.Optional(Type.String({ minLength: 1, description: 'Head branch as "user:branch".' })),
    base: Type.Optional(Type.String({ minLength: 1, description: 'Base branch.' })),
    sort: Type.Optional(Type.Enum(['created', 'updated', 'popularity', 'long-running'])),
    direction: Type.Optional(Type.Enum(['asc', 'desc'])),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const PullRequestArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    pullNumber: NumberOf('Pull request'),
    fields: Type.Optional(Type.Literal('all')),
    ...renderingArgs,
  },
  { additionalProperties: false },
);
export const DiffArgs = Type.Object({ owner: Owner, repo: Repo, pullNumber: NumberOf('Pull request') }, { additionalProperties: false });

export const LIST_PULL_REQUESTS = defineTool({
  name: 'github_list_pull_requests',
  toolset: 'github.pull_requests',
  title: 'List GitHub pull requests',
  description: `List pull requests of a repository. ${PAGE_NOTE} Project with jq, e.g. "[*].{number: number, title: title, head: head.ref}".`,
  annotations: READ,
  input: ListPullRequestsArgs,
  envelope: PagedEnvelope,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof ListPullRequestsArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/pulls`,
    query: { state: args.state, head: args.head, base: args.base, sort: args.sort, direction: args.direction, per_page: args.perPage, page: args.page },
  }),
  handler: async (ctx, github: GithubDeps) => {
    const listed = await page(github, ctx);
    return { ...listed, provenance: await pullRequestItems(github, ctx, listed.value, ctx.args) };
  },
});

export const GET_PULL_REQUEST = defineTool({
  name: 'github_get_pull_request',
  toolset: 'github.pull_requests',
  title: 'Get a GitHub pull request',
  description:
    'One pull request: title, body, state, branches, mergeability, counts; fields "all": every field. Result {data}. Its diff: github_get_pull_request_diff.',
  annotations: READ,
  input: PullRequestArgs,
  envelope: ReadEnvelope,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof PullRequestArgs>) => ({ method: 'GET', path: `${repoPath(args)}/pulls/${args.pullNumber}` }),
  // A projection reads the whole answer: jq names what it wants, so nothing is left out before it. The labels
  // are read from the whole answer too; the compact one keeps the labelled title and body where they were.
  handler: async (ctx, github: GithubDeps) => {
    const body = (await github.upstream.send(ctx, ctx.route)).body;
    const provenance = await pullRequestItems(github, ctx, body, ctx.args);
    return { value: ctx.args.fields === 'all' || ctx.args.jq !== undefined ? body : compactPullRequest(body), provenance };
  },
});

export const GET_PULL_REQUEST_DIFF = defineTool({
  name: 'github_get_pull_request_diff',
  toolset: 'github.pull_requests',
  title: 'Get the diff of a GitHub pull request',
  description:
    'The unified diff of a pull request, as text. A diff too long to show is cut, and the whole diff saved as an artifact the result names (read it with artifact_read, encoding "utf8").',
  annotations: READ,
  input: DiffArgs,
  savesArtifacts: true,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof DiffArgs>) => ({ method: 'GET', path: `${repoPath(args)}/pulls/${args.pullNumber}` }),
  handler: async (ctx, github: GithubDeps) => {
    const args = ctx.args;
    const where = `pull request #${args.pullNumber} of ${args.owner}/${args.repo}`;
    try {
      const response = await github.diffs.send(ctx, ctx.route, { expect: 'text', progress: `reading the diff of ${where}` });
      const text = await diffText(ctx, github.artifacts, where, github.scrub(response.text));
      return { text, provenance: await diffLabel(github, ctx, args) };
    } catch (error) {
      const { code, status } = error as { code?: string; status?: number };
      // GitHub refuses diffs past its own limits with 406; a diff over MCP_MAX_RESPONSE_BYTES cannot be read either.
      if (status !== 406 && code !== 'upstream_too_large') throw error;
      const files = `${ctx.route.path}/files`;
      const why = status === 406 ? 'GitHub refuses to produce a diff this large' : `it is larger than MCP_MAX_RESPONSE_BYTES (${github.maxBytes} bytes)`;
      throw new ToolError(
        code === 'upstream_too_large' ? 'upstream_too_large' : 'upstream_http_error',
        `The diff of ${where} was not read: ${why}. List its changed files, each with its patch, with ${await advisedTool(ctx, 'github_get')} on "${files}" (per_page, page).`,
        {
          status,
          upstreamBody: (error as ToolError).upstreamBody,
        },
      );
    }
  },
});
