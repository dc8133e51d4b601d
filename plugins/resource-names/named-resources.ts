import { servedPath } from '../../core/http/path-guards.js';
import { graphqlRepositories } from './graphql-repositories.js';
import type { Named } from './named.js';

export type { Named } from './named.js';

/** A request as the allowlists read it: the prepared one, or one the handler sends beyond it. */
export interface ReadRequest {
  readonly method: string;
  /** As sent, API prefix included (read as the server serves it: decoded, dot segments resolved). */
  readonly path: string;
  /** The query as sent (`?spaceKey=ENG`), or ''. */
  readonly search: string;
  readonly body?: string;
  /** Whether the request carries a GraphQL operation (its body is read as one). */
  readonly graphql: boolean;
}

/** The vendors with an allowlist, by the upstream identity's vendor name. */
export type ListedVendor = 'github' | 'bitbucket' | 'circleci' | 'jira' | 'confluence';

/** Everything one request names for its vendor's list; empty when it names nothing the list is about. */
export function namedResources(vendor: ListedVendor, request: ReadRequest): Named[] {
  const parts = servedPath(request.path)
    .split('/')
    .filter((s) => s !== '');
  switch (vendor) {
    case 'github':
      return [...githubPath(parts), ...searchedRepositories(parts, request.search), ...(request.graphql ? graphqlRepositories(request.body) : [])];
    case 'bitbucket':
      return bitbucketPath(parts);
    case 'circleci':
      return circleciPath(parts);
    case 'jira':
      return jiraRequest(parts, request);
    case 'confluence':
      return confluenceRequest(parts, request);
  }
}

const resource = (value: string): Named => ({ kind: 'resource', value });
const undecidable = (what: string): Named => ({ kind: 'undecidable', what });

/** `/repos/{owner}/{repo}/...`; `/repositories/{id}/...` names a repository by id, which no list of names decides. */
function githubPath(parts: string[]): Named[] {
  if (parts[0] === 'repos' && parts.length >= 3) return [resource(`${parts[1]}/${parts[2]}`)];
  if (parts[0] === 'repositories' && parts.length >= 2) return [undecidable(`repository id ${parts[1]} (name it as /repos/{owner}/{repo})`)];
  return [];
}

/**
 * The repositories a GitHub search narrows to with `repo:owner/name` qualifiers (`/search/issues?q=repo:acme/app
 * bug`). A search without one reads every repository the token sees: not decided (docs/policy.md#allowlists).
 */
function searchedRepositories(parts: string[], search: string): Named[] {
  if (parts[0] !== 'search') return [];
  const q = new URLSearchParams(search).get('q') ?? '';
  return [...q.matchAll(/(?:^|[\s(])repo:"?([^\s")]+)/gi)].map((m) => resource(m[1]!));
}

/** Cloud `/2.0/repositories/{workspace}/{repo}`, a workspace's listing; Data Center `/rest/api/{v}/projects/{KEY}/repos/{slug}`. */
function bitbucketPath(parts: string[]): Named[] {
  if (parts[0] === '2.0' && (parts[1] === 'repositories' || parts[1] === 'workspaces') && parts.length >= 3) {
    if (parts[1] === 'repositories' && parts.length >= 4) return [resource(`${parts[2]}/${parts[3]}`)];
    return [{ kind: 'container', value: parts[2]! }];
  }
  if (parts[0] === 'rest' && parts[1] === 'api' && parts[3] === 'projects' && parts.length >= 5) {
    if (parts[5] === 'repos' && parts.length >= 7) return [resource(`${parts[4]}/${parts[6]}`)];
    return [{ kind: 'container', value: parts[4]! }];
  }
  return [];
}

/** The short and long names of a version control system in a project slug (`github/acme/app` is `gh/acme/app`). */
const VCS: Readonly<Record<string, string>> = { gh: 'gh', github: 'gh', bb: 'bb', bitbucket: 'bb', circleci: 'circleci' };

/** `/api/v2/project/{vcs}/{org}/{repo}/...` (v1.1 alike) and `/api/v2/insights/{vcs}/{org}/{repo}/...`. */
function circleciPath(parts: string[]): Named[] {
  const rel = parts[0] === 'api' ? parts.slice(2) : parts;
  if ((rel[0] === 'project' || rel[0] === 'insights') && rel.length >= 4) {
    const vcs = VCS[rel[1]!.toLowerCase()];
    if (vcs !== undefined) return [resource(`${vcs}/${rel[2]}/${rel[3]}`)];
    if (rel[0] === 'project') return [undecidable(`project slug ${rel.slice(1, 4).join('/')}`)];
  }
  return [];
}

/** The parts after `/rest/api/{v}/` or `/rest/agile/{v}/` (Confluence v1: `/rest/api/`), wherever they start (a gateway prefix before them). */
function afterRest(parts: string[], first: string, apis: readonly string[], versioned = true): string[] | undefined {
  const at = parts.findIndex((p, i) => p === first && apis.includes(parts[i + 1] ?? ''));
  return at === -1 ? undefined : parts.slice(at + (versioned ? 3 : 2));
}

const ISSUE_KEY = /^([A-Za-z][A-Za-z0-9_]*)-\d+$/;

/** What follows `/project/` and is no project: the searches and listings of projects. */
const PROJECT_COLLECTIONS: ReadonlySet<string> = new Set(['search', 'recent', 'type']);

/** An issue by key (`PLAT-1` is project PLAT) or a project by key; an issue or project by number is undecidable. */
function jiraRequest(parts: string[], request: ReadRequest): Named[] {
  const rel = afterRest(parts, 'rest', ['api', 'agile']);
  if (rel === undefined) return [];
  const named: Named[] = [];
  if (rel[0] === 'issue' && rel[1] !== undefined) {
    // `issue/createmeta`, `issue/bulk` and the like are no issue: only a key or a number names one.
    const key = ISSUE_KEY.exec(rel[1]);
    if (key !== null) named.push(resource(key[1]!));
    else if (/^\d+$/.test(rel[1])) named.push(undecidable(`issue ${rel[1]} by id (name it by key, PLAT-1)`));
  }
  if (rel[0] === 'project' && rel[1] !== undefined && !PROJECT_COLLECTIONS.has(rel[1].toLowerCase())) {
    named.push(/^\d+$/.test(rel[1]) ? undecidable(`project ${rel[1]} by id (name it by key)`) : resource(rel[1]));
  }
  const project = (bodyOf(request.body)?.fields as Record<string, unknown> | undefined)?.project as Record<string, unknown> | undefined;
  if (project !== undefined && project !== null && typeof project === 'object') {
    if (typeof project.key === 'string') named.push(resource(project.key));
    else if (project.id !== undefined) named.push(undecidable(`project ${String(project.id)} by id (give fields.project.key)`));
  }
  return named;
}

/** `/wiki/rest/api/space/{KEY}`, a `spaceKey` query parameter, a body's `space.key`; v2's spaces by id are undecidable. */
function confluenceRequest(parts: string[], request: ReadRequest): Named[] {
  const named: Named[] = [];
  const v1 = afterRest(parts, 'rest', ['api'], false);
  if (v1 !== undefined && v1[0] === 'space' && v1[1] !== undefined) named.push(resource(v1[1]));
  const v2 = afterRest(parts, 'wiki', ['api']);
  if (v2 !== undefined && v2[0] === 'spaces' && v2[1] !== undefined)
    named.push(undecidable(`space ${v2[1]} by id (name it by key, /wiki/rest/api/space/{KEY})`));
  const query = new URLSearchParams(request.search);
  for (const key of query.getAll('spaceKey')) named.push(resource(key));
  // v2's spaces looked up by key (`/wiki/api/v2/spaces?keys=ENG,DOCS`, how conf_create_page finds its space).
  if (v2 !== undefined && v2[0] === 'spaces' && v2[1] === undefined) for (const keys of query.getAll('keys')) named.push(...keys.split(',').map(resource));
  const space = bodyOf(request.body)?.space as Record<string, unknown> | undefined;
  if (space !== undefined && space !== null && typeof space === 'object' && typeof space.key === 'string') named.push(resource(space.key));
  return named;
}

/** A JSON object body, or undefined for none (or another kind of body). */
export function bodyOf(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined || body === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
