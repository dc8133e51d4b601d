import { servedPath } from '../../core/http/path-guards.js';
import type { ListedVendor } from '../resource-names/named-resources.js';
import { at, str } from './json-member.js';

/**
 * What an item of a result names for its vendor's list: the resource (`acme/app`, `PLAT`, `gh/acme/app`), null
 * when the item belongs to no resource the list is about (a user in a Confluence search), undefined when its
 * resource cannot be read from it (left out: a list never lets through what it cannot decide).
 */
export type ItemName = string | readonly string[] | null | undefined;

/**
 * Where a response's items span resources, and what each names: a list (`at` the keys down to its array, []
 * for a body that is the array, `*` for each element of an array on the way) or one resource's object (`one`, the response refused whole when it is off
 * the list). Chosen by the request's path, in the shapes the vendors document; a path of none is not read.
 */
export type ResultShape =
  | { readonly kind: 'list'; readonly at: readonly string[]; readonly nameOf: (item: unknown) => ItemName; readonly what: string }
  | {
      readonly kind: 'one';
      readonly nameOf: (body: unknown) => ItemName;
      readonly what: string;
      /**
       * What the request's path already decided (a repository's own path): what names no resource is kept,
       * and only what names another is held to the list (an issue a redirect found in another repository).
       */
      readonly pathDecided?: true;
    };

/** The request a response answers, as the shapes read it. */
export interface AnsweredRequest {
  readonly method: string;
  /** As sent, API prefix included. */
  readonly path: string;
}

/** The shape of what `request` answers for `vendor`, or undefined when the response is not read. */
export function resultShape(vendor: ListedVendor, request: AnsweredRequest): ResultShape | undefined {
  const parts = servedPath(request.path)
    .split('/')
    .filter((s) => s !== '');
  switch (vendor) {
    case 'github':
      return githubShape(parts);
    case 'jira':
      return jiraShape(parts);
    case 'confluence':
      return confluenceShape(parts);
    case 'bitbucket':
      return bitbucketShape(parts);
    case 'circleci':
      return circleciShape(parts);
  }
}

const list = (at: readonly string[], nameOf: (item: unknown) => ItemName, what: string): ResultShape => ({ kind: 'list', at, nameOf, what });
const one = (nameOf: (body: unknown) => ItemName, what: string): ResultShape => ({ kind: 'one', nameOf, what });

// GitHub ---------------------------------------------------------------------------------------------------

/** `owner/repo` from an API URL of a repository (`https://api.github.com/repos/acme/app`, GHES `/api/v3/repos/...`). */
function repoOfApiUrl(url: unknown): string | undefined {
  const m = /\/repos\/([^/]+)\/([^/?#]+)/.exec(str(url) ?? '');
  return m === null ? undefined : `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`;
}

/** A repository object's `full_name`. */
const fullName = (repo: unknown): string | undefined => str(at(repo, 'full_name'));

/** The repository an issue, pull request, notification, code or commit result belongs to, however it says so. */
function githubItemRepo(item: unknown): ItemName {
  return fullName(at(item, 'repository')) ?? repoOfApiUrl(at(item, 'repository_url')) ?? str(at(item, 'repo', 'name')) ?? fullName(item);
}

/** `owner/repo` of a web address of something in a repository (`https://github.com/acme/app/blob/main/README.md`). */
function repoOfWebUrl(url: unknown): string | undefined {
  const m = /^https?:\/\/[^/]+(?:\/[^/]+)*?\/([^/]+)\/([^/]+)\/(?:blob|tree|issues|pull|commit|releases|actions)\//.exec(str(url) ?? '');
  return m === null ? undefined : `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`;
}

/** What something read under a repository's id says of its repository: the fields above, or its web address. */
const githubObjectRepo = (body: unknown): ItemName =>
  githubItemRepo(body) ?? repoOfApiUrl(at(body, 'url')) ?? repoOfWebUrl(at(body, 'html_url')) ?? repoOfWebUrl(at(body, '_links', 'html'));

/** GitHub's listings that span repositories: searches, an owner's repositories, issues and notifications across them. */
function githubShape(parts: string[]): ResultShape | undefined {
  const [first, second, third, fourth] = parts;
  // Under a repository's own path, what comes back names that repository, unless a redirect (a transferred
  // issue, a renamed repository) led elsewhere: whatever names another repository is held to the list.
  if (first === 'repos' && parts.length >= 3) return { kind: 'one', nameOf: githubObjectRepo, what: 'data', pathDecided: true };
  if (first === 'search') {
    if (second === 'repositories') return list(['items'], fullName, 'repositories');
    if (second === 'issues' || second === 'code' || second === 'commits') return list(['items'], githubItemRepo, 'search results');
    return undefined;
  }
  const repos = (what: string): ResultShape => list([], fullName, what);
  // An owner's repositories, the caller's, an installation's, starred and watched ones, every public one.
  if ((first === 'orgs' || first === 'users') && third === 'repos' && parts.length === 3) return repos('repositories');
  if (first === 'user' && (second === 'repos' || second === 'starred' || second === 'subscriptions') && parts.length === 2) return repos('repositories');
  if (first === 'users' && (third === 'starred' || third === 'subscriptions') && parts.length === 3) return repos('repositories');
  if (first === 'repositories' && parts.length === 1) return repos('repositories');
  if (first === 'installation' && second === 'repositories' && parts.length === 2) return list(['repositories'], fullName, 'repositories');
  if (first === 'user' && second === 'installations' && fourth === 'repositories') return list(['repositories'], fullName, 'repositories');
  // Issues and notifications across repositories.
  if ((first === 'issues' || first === 'notifications') && parts.length === 1) return list([], githubItemRepo, first);
  if (first === 'user' && second === 'issues' && parts.length === 2) return list([], githubItemRepo, 'issues');
  if (first === 'orgs' && third === 'issues' && parts.length === 3) return list([], githubItemRepo, 'issues');
  // Events: each names its repository as `repo.name`.
  if (parts.includes('events') || parts.includes('received_events')) return list([], githubItemRepo, 'events');
  // A repository by id (a renamed repository's redirect, let through as a follow-up): decided by what it returns.
  if (first === 'repositories' && parts.length >= 2) return one(githubObjectRepo, `repository ${second}`);
  return undefined;
}

// Jira -----------------------------------------------------------------------------------------------------

const ISSUE_KEY = /^([A-Za-z][A-Za-z0-9_]*)-\d+$/;

/**
 * The projects of an issue: its key's (a moved issue answers under its new key) and its `fields.project.key`
 * when asked for; each must be allowed.
 */
function issueName(issue: unknown): ItemName {
  const key = ISSUE_KEY.exec(str(at(issue, 'key')) ?? '')?.[1];
  const project = str(at(issue, 'fields', 'project', 'key'));
  const named = [key, project].filter((k): k is string => k !== undefined);
  return named.length === 0 ? undefined : named;
}

/** The parts after `/rest/api/{v}/` or `/rest/agile/{v}/`, wherever they start (a gateway prefix before them). */
function afterRest(parts: string[], apis: readonly string[], versioned = true): string[] | undefined {
  const i = parts.findIndex((p, n) => p === 'rest' && apis.includes(parts[n + 1] ?? ''));
  return i === -1 ? undefined : parts.slice(i + (versioned ? 3 : 2));
}

function jiraShape(parts: string[]): ResultShape | undefined {
  const rel = afterRest(parts, ['api', 'agile']);
  if (rel === undefined) return undefined;
  const [first, second, third] = rel;
  // JQL searches (Cloud's /search/jql, Data Center's /search) and the agile API's issues of a board, sprint or epic.
  if (first === 'search' && (second === undefined || second === 'jql')) return list(['issues'], issueName, 'issues');
  if ((first === 'board' || first === 'sprint' || first === 'epic') && rel.at(-1) === 'issue') return list(['issues'], issueName, 'issues');
  // The issue picker's suggestions, section by section (`sections[].issues[]`, each with its key).
  if (first === 'issue' && second === 'picker' && third === undefined) return list(['sections', '*', 'issues'], issueName, 'issues');
  if (first === 'project' && second === undefined) return list([], (p) => str(at(p, 'key')), 'projects');
  if (first === 'project' && second === 'search' && third === undefined) return list(['values'], (p) => str(at(p, 'key')), 'projects');
  // One issue, by key or number: decided by the issue returned (a key whose issue moved answers with another).
  // The key was decided on the way out; a body that names no project (none Jira sends) is kept as the path decided.
  if (first === 'issue' && second !== undefined && third === undefined && (ISSUE_KEY.test(second) || /^\d+$/.test(second)))
    return { kind: 'one', nameOf: issueName, what: `issue ${second}`, pathDecided: true };
  return undefined;
}

// Confluence -----------------------------------------------------------------------------------------------

/** The space key in an API or web path: `/rest/api/space/ENG`, `/spaces/ENG/pages/1`, `/display/ENG/...`. */
function spaceInPath(path: unknown): string | undefined {
  const m = /\/(?:rest\/api\/space|spaces|display)\/([^/?#]+)/.exec(str(path) ?? '');
  return m === null ? undefined : decodeURIComponent(m[1]!);
}

/** A content object's space: expanded (`space.key`), as its link (`_expandable.space`), or in its web address. */
const contentSpace = (content: unknown): string | undefined =>
  str(at(content, 'space', 'key')) ?? spaceInPath(at(content, '_expandable', 'space')) ?? spaceInPath(at(content, '_links', 'webui'));

/**
 * A CQL search result's space: its content's, a space result's own, or the container Confluence shows it in
 * (`resultGlobalContainer.displayUrl`, `/spaces/ENG`). A user result belongs to no space.
 */
function searchResultSpace(result: unknown): ItemName {
  if (at(result, 'user') !== undefined || at(result, 'entityType') === 'user') return null;
  return (
    contentSpace(at(result, 'content')) ??
    str(at(result, 'space', 'key')) ??
    spaceInPath(at(result, 'resultGlobalContainer', 'displayUrl')) ??
    spaceInPath(at(result, 'url'))
  );
}

function confluenceShape(parts: string[]): ResultShape | undefined {
  const v1 = afterRest(parts, ['api'], false);
  if (v1 !== undefined) {
    const [first, second, third] = v1;
    if (first === 'search' && second === undefined) return list(['results'], searchResultSpace, 'search results');
    if (first === 'content' && (second === undefined || (second === 'search' && third === undefined))) return list(['results'], contentSpace, 'content');
    if (first === 'space' && second === undefined) return list(['results'], (s) => str(at(s, 'key')), 'spaces');
    if (first === 'content' && second !== undefined && /^\d+$/.test(second) && third === undefined) return one(contentSpace, `content ${second}`);
    return undefined;
  }
  const i = parts.findIndex((p, n) => p === 'wiki' && parts[n + 1] === 'api' && parts[n + 2] === 'v2');
  if (i === -1) return undefined;
  const [first, second, third] = parts.slice(i + 3);
  // v2 names a page's space by id (`spaceId`) and in its web address (`_links.webui`, `/spaces/ENG/pages/...`):
  // an item without the address cannot be decided and is left out; a page read by id without it is decided
  // when its space is read (conf_get_page does), or refused at the end of the call (result-filter.ts).
  if (first === 'spaces' && second === undefined) return list(['results'], (s) => str(at(s, 'key')), 'spaces');
  if (first === 'spaces' && second !== undefined && third === undefined) return one((s) => str(at(s, 'key')), `space ${second}`);
  if ((first === 'pages' || first === 'blogposts') && second === undefined) return list(['results'], contentSpace, first);
  if ((first === 'pages' || first === 'blogposts') && second !== undefined && third === undefined) return one(contentSpace, `${first.slice(0, -1)} ${second}`);
  return undefined;
}

// Bitbucket ------------------------------------------------------------------------------------------------

/** A Cloud repository's `full_name`, or a Data Center repository as `PROJECT/slug`. */
function bitbucketRepo(repo: unknown): string | undefined {
  const cloud = str(at(repo, 'full_name'));
  if (cloud !== undefined) return cloud;
  const project = str(at(repo, 'project', 'key'));
  const slug = str(at(repo, 'slug'));
  return project !== undefined && slug !== undefined ? `${project}/${slug}` : undefined;
}

/** A pull request's repository (Cloud: its destination's; Data Center: its target ref's). */
const pullRequestRepo = (pr: unknown): ItemName => bitbucketRepo(at(pr, 'destination', 'repository')) ?? bitbucketRepo(at(pr, 'toRef', 'repository'));

function bitbucketShape(parts: string[]): ResultShape | undefined {
  if (parts[0] === '2.0') {
    const [, first, second, third] = parts;
    // Every public repository, a workspace's, and the repositories the caller may reach.
    if (first === 'repositories' && (second === undefined || third === undefined)) return list(['values'], bitbucketRepo, 'repositories');
    if (first === 'user' && second === 'permissions' && third === 'repositories')
      return list(['values'], (p) => bitbucketRepo(at(p, 'repository')), 'repositories');
    if (first === 'pullrequests' && second !== undefined && third === undefined) return list(['values'], pullRequestRepo, 'pull requests');
    if (first === 'workspaces' && parts[3] === 'pullrequests') return list(['values'], pullRequestRepo, 'pull requests');
    return undefined;
  }
  if (parts[0] === 'rest' && parts[1] === 'api') {
    const rel = parts.slice(3);
    if (rel[0] === 'repos' && rel.length === 1) return list(['values'], bitbucketRepo, 'repositories');
    if (rel[0] === 'projects' && rel[2] === 'repos' && rel.length === 3) return list(['values'], bitbucketRepo, 'repositories');
    if (rel[0] === 'dashboard' && rel[1] === 'pull-requests') return list(['values'], pullRequestRepo, 'pull requests');
  }
  return undefined;
}

// CircleCI -------------------------------------------------------------------------------------------------

const VCS: Readonly<Record<string, string>> = { gh: 'gh', github: 'gh', bb: 'bb', bitbucket: 'bb', circleci: 'circleci' };

/** A project slug with its long VCS spelling shortened (`github/acme/app` is `gh/acme/app`). */
function slug(value: unknown): string | undefined {
  const s = str(value);
  if (s === undefined) return undefined;
  const [vcs, ...rest] = s.split('/');
  return rest.length === 2 ? `${VCS[vcs!.toLowerCase()] ?? vcs}/${rest.join('/')}` : undefined;
}

function circleciShape(parts: string[]): ResultShape | undefined {
  // v1.1 serves only a job's detail here (circleci-client.ts), under its project's path.
  if (parts[0] === 'api' && parts[1] !== 'v2') return undefined;
  const rel = parts[0] === 'api' ? parts.slice(2) : parts;
  const [first, second, third] = rel;
  const bySlug = (item: unknown): ItemName => slug(at(item, 'project_slug'));
  // A schedule says its project as `project-slug` (CircleCI's schedule API spells it so).
  if (first === 'schedule' && second !== undefined && third === undefined) return one((item) => slug(at(item, 'project-slug')), `schedule ${second}`);
  // An organization's pipelines, and the pipelines, workflows and jobs read by id: each says its project.
  if (first === 'pipeline' && second === undefined) return list(['items'], bySlug, 'pipelines');
  if (first === 'pipeline' && second !== undefined && third === undefined) return one(bySlug, `pipeline ${second}`);
  if (first === 'pipeline' && second !== undefined && third === 'workflow') return list(['items'], bySlug, 'workflows');
  if (first === 'workflow' && second !== undefined && third === undefined) return one(bySlug, `workflow ${second}`);
  if (first === 'workflow' && second !== undefined && third === 'job') return list(['items'], bySlug, 'jobs');
  return undefined;
}
