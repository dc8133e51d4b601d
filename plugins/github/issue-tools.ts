import Type, { type Static } from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { PagedEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { page, written, type GithubDeps } from './github-deps.js';
import { definedOnly, NumberOf, Owner, Page, PAGE_NOTE, PerPage, READ, Repo, repoPath, State, write } from './shared-args.js';
import { commentResult, issueResult } from './write-results.js';
import { repositoryItems, repoTarget, searchItems, VISIBILITY_LOOKUP } from './provenance.js';

// Issues (and pull requests, which GitHub also serves as issues): search, list, read, file, edit, comment. The
// writes send their `ctx.route`, the request policy decided on (and an approver saw), and answer with what they
// made or changed (write-results.ts).

// No maxLength: GitHub's own 422 names the limit, and each bound is paid for in every tools/list.
const Title = Type.String({ minLength: 1 });
const Body = Type.String({ minLength: 1, description: 'Markdown.' });
const Labels = Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Label names.' });
const Assignees = Type.Array(Type.String({ minLength: 1 }), { maxItems: 10, description: 'Logins.' });

export const SearchIssuesArgs = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      description: 'GitHub search syntax with is:issue or is:pr, e.g. "repo:octo-org/app is:pr is:open review-requested:@me".',
    }),
    sort: Type.Optional(Type.Enum(['comments', 'reactions', 'interactions', 'created', 'updated'], { description: 'Default: best match.' })),
    order: Type.Optional(Type.Enum(['desc', 'asc'])),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const ListIssuesArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    state: State,
    labels: Type.Optional(Type.String({ minLength: 1, description: 'Comma-separated label names, all required.' })),
    assignee: Type.Optional(Type.String({ minLength: 1, description: 'A login, "none" or "*".' })),
    since: Type.Optional(Type.String({ minLength: 1, description: 'Only issues updated at or after this ISO 8601 time.' })),
    includePullRequests: Type.Optional(Type.Boolean({ description: 'Keep pull requests, which GitHub lists as issues (default false).' })),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const IssueArgs = Type.Object({ owner: Owner, repo: Repo, issueNumber: NumberOf('Issue'), ...renderingArgs }, { additionalProperties: false });

export const CreateIssueArgs = Type.Object(
  { owner: Owner, repo: Repo, title: Title, body: Type.Optional(Body), labels: Type.Optional(Labels), assignees: Type.Optional(Assignees) },
  { additionalProperties: false },
);

export const UpdateIssueArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    issueNumber: NumberOf('Issue or pull request'),
    title: Type.Optional(Title),
    body: Type.Optional(Body),
    state: Type.Optional(Type.Enum(['open', 'closed'])),
    stateReason: Type.Optional(Type.Enum(['completed', 'not_planned', 'duplicate', 'reopened'], { description: 'With a state change.' })),
    labels: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Replaces all labels; [] clears.' })),
    assignees: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 10, description: 'Replaces all assignees; [] clears.' })),
  },
  { additionalProperties: false },
);

export const AddCommentArgs = Type.Object(
  { owner: Owner, repo: Repo, issueNumber: NumberOf('Issue or pull request'), body: Body },
  { additionalProperties: false },
);

export const SEARCH_ISSUES = defineTool({
  name: 'github_search_issues',
  toolset: 'github.issues',
  title: 'Search GitHub issues and pull requests',
  description:
    'Search issues and pull requests. Result {data, nextPage}: data is {total_count, items}; pass nextPage as page. Project with jq, e.g. "items[*].{number: number, title: title, url: html_url}".',
  annotations: READ,
  input: SearchIssuesArgs,
  envelope: PagedEnvelope,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof SearchIssuesArgs>) => ({
    method: 'GET',
    path: '/search/issues',
    query: { q: args.query, sort: args.sort, order: args.order, per_page: args.perPage, page: args.page },
  }),
  handler: async (ctx, github: GithubDeps) => {
    const found = await page(github, ctx);
    return { ...found, provenance: await searchItems(github, ctx, found.value) };
  },
});

export const LIST_ISSUES = defineTool({
  name: 'github_list_issues',
  toolset: 'github.issues',
  title: 'List GitHub issues',
  description: `List issues of a repository, newest first; pull requests are left out unless includePullRequests (a page may then hold fewer than perPage). ${PAGE_NOTE}`,
  annotations: READ,
  input: ListIssuesArgs,
  envelope: PagedEnvelope,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof ListIssuesArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/issues`,
    query: { state: args.state, labels: args.labels, assignee: args.assignee, since: args.since, per_page: args.perPage, page: args.page },
  }),
  handler: async (ctx, github: GithubDeps) => {
    const issues = await page(github, ctx);
    // GitHub lists pull requests as issues (they carry a `pull_request` key): left out unless asked for.
    const kept =
      ctx.args.includePullRequests === true || !Array.isArray(issues.value)
        ? issues
        : { ...issues, value: issues.value.filter((item: unknown) => !(item !== null && typeof item === 'object' && 'pull_request' in item)) };
    return { ...kept, provenance: await repositoryItems(github, ctx, kept.value, ctx.args) };
  },
});

export const GET_ISSUE = defineTool({
  name: 'github_get_issue',
  toolset: 'github.issues',
  title: 'Get a GitHub issue',
  description: 'One issue (or pull request) by number: title, body, state, labels, assignees, comment count. Result {data}.',
  annotations: READ,
  input: IssueArgs,
  envelope: ReadEnvelope,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof IssueArgs>) => ({ method: 'GET', path: `${repoPath(args)}/issues/${args.issueNumber}` }),
  handler: async (ctx, github: GithubDeps) => {
    const value = (await github.upstream.send(ctx, ctx.route)).body;
    return { value, provenance: await repositoryItems(github, ctx, value, ctx.args) };
  },
});

export const CREATE_ISSUE = defineTool({
  name: 'github_create_issue',
  toolset: 'github.issues',
  title: 'Create a GitHub issue',
  description:
    'File an issue. Labels and assignees need push access (GitHub drops them silently otherwise). Result {data}: number, html_url, state, labels, assignees.',
  annotations: write(),
  provenance: { labels: false, target: repoTarget },
  input: CreateIssueArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof CreateIssueArgs>) => ({
    method: 'POST',
    path: `${repoPath(args)}/issues`,
    body: definedOnly({ title: args.title, body: args.body, labels: args.labels, assignees: args.assignees }),
  }),
  handler: async (ctx, github: GithubDeps) => ({ value: issueResult(await written(github, ctx)) }),
});

/** The fields of github_update_issue as GitHub names them, in its body. */
const UPDATE_FIELDS = { title: 'title', body: 'body', state: 'state', stateReason: 'state_reason', labels: 'labels', assignees: 'assignees' } as const;

export const UPDATE_ISSUE = defineTool({
  name: 'github_update_issue',
  toolset: 'github.issues',
  title: 'Update a GitHub issue',
  description:
    'Edit an issue or pull request; only the fields given change. Close: state "closed", stateReason "completed" or "not_planned". Result {data}: number, state, labels, assignees, html_url, changed.',
  annotations: write({ idempotent: true }),
  provenance: { labels: false, target: repoTarget },
  input: UpdateIssueArgs,
  envelope: ReadEnvelope,
  // Only the fields given: a call that gives none sends an empty edit, and its answer says `changed: []`.
  route: (args: Static<typeof UpdateIssueArgs>) => ({
    method: 'PATCH',
    path: `${repoPath(args)}/issues/${args.issueNumber}`,
    body: definedOnly(Object.fromEntries(Object.entries(UPDATE_FIELDS).map(([arg, field]) => [field, args[arg as keyof typeof UPDATE_FIELDS]]))),
  }),
  // The body holds only the fields given (GitHub's names): those are what changed.
  handler: async (ctx, github: GithubDeps) => ({ value: issueResult(await written(github, ctx), Object.keys(ctx.route.body as object)) }),
});

export const ADD_COMMENT = defineTool({
  name: 'github_add_comment',
  toolset: 'github.issues',
  title: 'Comment on a GitHub issue or pull request',
  description: "Add a comment to an issue or a pull request's conversation. Result {data}: the comment's id and html_url.",
  annotations: write(),
  provenance: { labels: false, target: repoTarget },
  input: AddCommentArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof AddCommentArgs>) => ({
    method: 'POST',
    path: `${repoPath(args)}/issues/${args.issueNumber}/comments`,
    body: { body: args.body },
  }),
  handler: async (ctx, github: GithubDeps) => ({ value: commentResult(await written(github, ctx), ctx.args.issueNumber) }),
});
