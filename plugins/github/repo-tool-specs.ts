import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { safeApiPath } from '../../core/http/path-guards.js';
import type { RoutedToolSpec } from '../../core/plugin/contract.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { PagedEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { NumberOf, Owner, Page, PerPage, READ, Repo, repoPath } from './shared-args.js';

// Pull requests, issues, files and repositories: the reads an agent needs around a red build.

const State = Type.Optional(Type.Enum(['open', 'closed', 'all'], { description: 'open (default), closed or all.' }));

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

export const PullRequestArgs = Type.Object(
  { owner: Owner, repo: Repo, pullNumber: NumberOf('Pull request'), ...renderingArgs },
  { additionalProperties: false },
);
export const DiffArgs = Type.Object({ owner: Owner, repo: Repo, pullNumber: NumberOf('Pull request') }, { additionalProperties: false });
export const IssueArgs = Type.Object({ owner: Owner, repo: Repo, issueNumber: NumberOf('Issue'), ...renderingArgs }, { additionalProperties: false });

export const FileArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    path: Type.String({ description: 'File or directory path in the repository, e.g. "src/index.ts"; "" for the root.' }),
    ref: Type.Optional(Type.String({ minLength: 1, description: 'Branch, tag or commit SHA (default: the default branch).' })),
  },
  { additionalProperties: false },
);

export const ListReposArgs = Type.Object(
  {
    owner: Owner,
    type: Type.Optional(
      Type.Enum(['all', 'public', 'private', 'forks', 'sources', 'member', 'owner'], {
        description: 'Organizations: all, public, private, forks, sources, member; users: all, owner, member.',
      }),
    ),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

const PAGE_NOTE = 'Result {data, nextPage}: pass nextPage as page for more.';

export const LIST_PULL_REQUESTS: RoutedToolSpec<typeof ListPullRequestsArgs, typeof PagedEnvelope> = {
  name: 'github_list_pull_requests',
  toolset: 'github.pull_requests',
  title: 'List GitHub pull requests',
  description: `List pull requests of a repository. ${PAGE_NOTE} Project with jq, e.g. "[*].{number: number, title: title, head: head.ref}".`,
  annotations: READ,
  input: ListPullRequestsArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof ListPullRequestsArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/pulls`,
    query: { state: args.state, head: args.head, base: args.base, sort: args.sort, direction: args.direction, per_page: args.perPage, page: args.page },
  }),
};

export const LIST_ISSUES: RoutedToolSpec<typeof ListIssuesArgs, typeof PagedEnvelope> = {
  name: 'github_list_issues',
  toolset: 'github.issues',
  title: 'List GitHub issues',
  description: `List issues of a repository, newest first; pull requests are left out unless includePullRequests (a page may then hold fewer than perPage). ${PAGE_NOTE}`,
  annotations: READ,
  input: ListIssuesArgs,
  envelope: PagedEnvelope,
  route: (args: Static<typeof ListIssuesArgs>) => ({
    method: 'GET',
    path: `${repoPath(args)}/issues`,
    query: { state: args.state, labels: args.labels, assignee: args.assignee, since: args.since, per_page: args.perPage, page: args.page },
  }),
};

export const GET_PULL_REQUEST: RoutedToolSpec<typeof PullRequestArgs, typeof ReadEnvelope> = {
  name: 'github_get_pull_request',
  toolset: 'github.pull_requests',
  title: 'Get a GitHub pull request',
  description:
    'One pull request: title, body, state, head and base, mergeability, review and change counts. Result {data}. Its diff: github_get_pull_request_diff.',
  annotations: READ,
  input: PullRequestArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof PullRequestArgs>) => ({ method: 'GET', path: `${repoPath(args)}/pulls/${args.pullNumber}` }),
};

export const GET_PULL_REQUEST_DIFF: RoutedToolSpec<typeof DiffArgs> = {
  name: 'github_get_pull_request_diff',
  toolset: 'github.pull_requests',
  title: 'Get the diff of a GitHub pull request',
  description:
    'The unified diff of a pull request, as text. A diff too long to show is cut, and the whole diff saved as an artifact the result names (read it with artifact_read, encoding "utf8").',
  annotations: READ,
  input: DiffArgs,
  savesArtifacts: true,
  route: (args: Static<typeof DiffArgs>) => ({ method: 'GET', path: `${repoPath(args)}/pulls/${args.pullNumber}` }),
};

export const GET_ISSUE: RoutedToolSpec<typeof IssueArgs, typeof ReadEnvelope> = {
  name: 'github_get_issue',
  toolset: 'github.issues',
  title: 'Get a GitHub issue',
  description: 'One issue (or pull request) by number: title, body, state, labels, assignees, comment count. Result {data}.',
  annotations: READ,
  input: IssueArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof IssueArgs>) => ({ method: 'GET', path: `${repoPath(args)}/issues/${args.issueNumber}` }),
};

export const GET_FILE: RoutedToolSpec<typeof FileArgs> = {
  name: 'github_get_file',
  toolset: 'github.repos',
  title: 'Read a file from a GitHub repository',
  description:
    "A file's text, or a directory's listing. A binary file, or one too long to show, is saved as an artifact the result names (read it with artifact_read).",
  annotations: READ,
  input: FileArgs,
  savesArtifacts: true,
  route: (args: Static<typeof FileArgs>) => ({ method: 'GET', path: contentsPath(args), query: { ref: args.ref } }),
};

export const LIST_REPOSITORIES: RoutedToolSpec<typeof ListReposArgs, typeof PagedEnvelope> = {
  name: 'github_list_repositories',
  toolset: 'github.repos',
  title: 'List GitHub repositories',
  description: `List the repositories of an organization or user. ${PAGE_NOTE} Project with jq, e.g. "[*].{name: name, private: private, pushed: pushed_at}".`,
  annotations: READ,
  input: ListReposArgs,
  envelope: PagedEnvelope,
  // "owner" is a type only users' lists have: such a list is a user's, asked for as one.
  route: (args: Static<typeof ListReposArgs>) => ({
    method: 'GET',
    path: `/${args.type === 'owner' ? 'users' : 'orgs'}/${encodeURIComponent(args.owner)}/repos`,
    query: { type: args.type, per_page: args.perPage, page: args.page },
  }),
  // An owner that is no organization (GitHub answers 404) is listed again as a user.
  further: (args: Static<typeof ListReposArgs>) => [{ method: 'GET', path: `/users/${encodeURIComponent(args.owner)}/repos` }],
};

/** The types only organizations' repository lists take (a user's: all, owner, member). */
export const ORGANIZATION_ONLY_TYPES: ReadonlySet<string> = new Set(['public', 'private', 'forks', 'sources']);

/**
 * `/repos/{owner}/{repo}/contents/{path}`, each segment encoded. The path is checked first with the check every
 * API path gets (no `.` or `..` in any encoding, no backslash, no control character), so it cannot climb out of
 * the repository's contents; the client checks the whole path again before sending.
 */
function contentsPath(args: { owner: string; repo: string; path: string }): string {
  const inRepo = args.path.replace(/^\/+|\/+$/g, '');
  if (inRepo === '') return `${repoPath(args)}/contents`;
  try {
    safeApiPath(`/${inRepo}`, 'GitHub');
    // A lone surrogate cannot be percent-encoded (encodeURIComponent throws): no file has such a name.
    return `${repoPath(args)}/contents/${inRepo.split('/').map(encodeURIComponent).join('/')}`;
  } catch {
    throw new ToolError(
      'invalid_path',
      `The path ${JSON.stringify(args.path.slice(0, 200))} does not stay inside the repository (no "." or ".." segments, backslashes, control characters or "#", in any encoding): give one such as "src/index.ts".`,
    );
  }
}
