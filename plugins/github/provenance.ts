import { resourceKey, type Confidentiality, type Integrity, type Provenance, type ProvenanceLabel } from '../../core/plugin/provenance.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import type { GithubDeps } from './github-deps.js';

// Whose words a GitHub answer carries (docs/untrusted-content.md#github): trust from the author's association
// with the repository as GitHub states it on every issue, pull request and comment, confidentiality from the
// repository's visibility. Anything GitHub did not say is untrusted, and private.

/** Associations of people who can push to the repository or belong to its organization. */
const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

export function associationTrust(association: unknown): { integrity: Integrity; why: string } {
  if (typeof association !== 'string' || association === '') return { integrity: 'untrusted', why: 'no author_association' };
  return { integrity: TRUSTED_ASSOCIATIONS.has(association) ? 'trusted' : 'untrusted', why: `author_association ${association}` };
}

/** The repository lookup the labelling tools may send beyond their route (for its visibility). */
export const VISIBILITY_LOOKUP: FurtherRoute = { method: 'GET', path: '/repos/*/*' };

/** What a repository's visibility is, as far as it could be learned; a failed lookup says why in `warning`. */
export interface Visibility {
  confidentiality: Confidentiality;
  /** False when GitHub did not say and private is assumed. */
  known: boolean;
  why: string;
  warning?: string;
}

/** Reads `private` / `visibility` as GitHub's repository object states them; anything else is private. */
export function visibilityOf(repository: unknown): Visibility {
  const r = (repository ?? {}) as { private?: unknown; visibility?: unknown };
  if (r.private === false || r.visibility === 'public') return { confidentiality: 'public', known: true, why: 'repository public' };
  if (r.private === true || typeof r.visibility === 'string')
    return { confidentiality: 'private', known: true, why: `repository ${String(r.visibility ?? 'private')}` };
  return { confidentiality: 'private', known: false, why: 'repository visibility unknown' };
}

const LOOKUP_TTL_MS = 60_000;
const looked = new Map<string, { at: number; visibility: Visibility }>();

/**
 * The visibility of owner/repo, read from GitHub (a minute's memory per repository and GitHub). A lookup that
 * fails (403, 404, a timeout, a policy refusal) gives private with a warning, and never loses the result.
 */
export async function repositoryVisibility(github: GithubDeps, ctx: AnyToolContext, owner: string, repo: string): Promise<Visibility> {
  const key = `${github.web}|${owner}/${repo}`.toLowerCase();
  const known = looked.get(key);
  if (known !== undefined && Date.now() - known.at < LOOKUP_TTL_MS) return known.visibility;
  try {
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
    const visibility = visibilityOf((await github.upstream.send(ctx, { method: 'GET', path })).body);
    if (looked.size > 500) looked.clear();
    looked.set(key, { at: Date.now(), visibility });
    return visibility;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      confidentiality: 'private',
      known: false,
      why: 'repository visibility unknown',
      warning: `The visibility of ${owner}/${repo} could not be read (${reason}): its items are labelled private.`,
    };
  }
}

/** The write target of a repository tool, as flow rules name it. */
export const repoTarget = (args: { owner: string; repo: string }): string => resourceKey('github', `${args.owner}/${args.repo}`);

/** The label of one issue, pull request or comment object, found at `at` in the value. */
export function itemLabel(item: unknown, at: ReadonlyArray<string | number>, repo: { owner: string; name: string }, visibility: Visibility): ProvenanceLabel {
  const o = (item ?? {}) as { number?: unknown; id?: unknown; user?: { login?: unknown }; author_association?: unknown; html_url?: unknown; body?: unknown };
  const trust = associationTrust(o.author_association);
  const isComment = typeof o.number !== 'number' && o.id !== undefined;
  const name = `${repo.owner}/${repo.name}`;
  const login = typeof o.user?.login === 'string' ? o.user.login : null;
  return {
    item: isComment ? `${name} comment ${String(o.id)}` : `${name}#${typeof o.number === 'number' ? o.number : '?'}`,
    resource: resourceKey('github', name),
    integrity: trust.integrity,
    confidentiality: visibility.confidentiality,
    ...(visibility.known ? {} : { assumed: true }),
    author: login,
    why: `${trust.why}; ${visibility.why}`,
    ...(typeof o.html_url === 'string' ? { url: o.html_url } : {}),
    at,
    fields: isComment ? ['body'] : ['title', 'body'],
  };
}

/** Labels for one repository's issues, pull requests or comments: the value itself, or each element of a list. */
export async function repositoryItems(
  github: GithubDeps,
  ctx: AnyToolContext,
  value: unknown,
  repo: { owner: string; repo: string },
  known?: Visibility,
): Promise<Provenance> {
  const visibility = known ?? (await repositoryVisibility(github, ctx, repo.owner, repo.repo));
  const where = { owner: repo.owner, name: repo.repo };
  const labels = Array.isArray(value) ? value.map((item, i) => itemLabel(item, [i], where, visibility)) : [itemLabel(value, [], where, visibility)];
  return { labels, warnings: visibility.warning === undefined ? [] : [visibility.warning] };
}

/** Search results span repositories: each item's repository is read from its `repository_url`. */
const MAX_SEARCH_LOOKUPS = 5;

export async function searchItems(github: GithubDeps, ctx: AnyToolContext, value: unknown): Promise<Provenance> {
  const items = (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return { labels: [], warnings: [] };
  const repoOf = (item: unknown): { owner: string; name: string } | undefined => {
    const m = /\/repos\/([^/]+)\/([^/]+)$/.exec(String((item as { repository_url?: unknown } | null)?.repository_url ?? ''));
    return m === null ? undefined : { owner: decodeURIComponent(m[1]!), name: decodeURIComponent(m[2]!) };
  };
  const visibilities = new Map<string, Visibility>();
  const warnings: string[] = [];
  const labels: ProvenanceLabel[] = [];
  for (const [i, item] of items.entries()) {
    const repo = repoOf(item) ?? { owner: '?', name: '?' };
    const key = `${repo.owner}/${repo.name}`.toLowerCase();
    let visibility = visibilities.get(key);
    if (visibility === undefined) {
      visibility =
        repo.owner === '?' || visibilities.size >= MAX_SEARCH_LOOKUPS
          ? { confidentiality: 'private', known: false, why: 'repository visibility not looked up' }
          : await repositoryVisibility(github, ctx, repo.owner, repo.name);
      visibilities.set(key, visibility);
      if (visibility.warning !== undefined) warnings.push(visibility.warning);
    }
    labels.push(itemLabel(item, ['items', i], repo, visibility));
  }
  return { labels, warnings };
}

/** Pull requests say their base repository's visibility themselves (`base.repo`); a lookup only when they do not. */
export async function pullRequestItems(github: GithubDeps, ctx: AnyToolContext, value: unknown, repo: { owner: string; repo: string }): Promise<Provenance> {
  const first = Array.isArray(value) ? value[0] : value;
  const base = (first as { base?: { repo?: unknown } } | null | undefined)?.base?.repo;
  const stated = base === undefined ? undefined : visibilityOf(base);
  return repositoryItems(github, ctx, value, repo, stated?.known === true ? stated : undefined);
}

/** A file of a repository: what was committed there (by people who can push), as private as the repository. */
export async function fileLabel(github: GithubDeps, ctx: AnyToolContext, args: { owner: string; repo: string; path: string }): Promise<Provenance> {
  const visibility = await repositoryVisibility(github, ctx, args.owner, args.repo);
  const name = `${args.owner}/${args.repo}`;
  const label: ProvenanceLabel = {
    item: `${name}:${args.path.replace(/^\/+/, '') || '/'}`,
    resource: resourceKey('github', name),
    integrity: 'trusted',
    confidentiality: visibility.confidentiality,
    ...(visibility.known ? {} : { assumed: true }),
    author: null,
    why: `committed to the repository; ${visibility.why}`,
    at: [],
    fields: [],
  };
  return { labels: [label], warnings: visibility.warning === undefined ? [] : [visibility.warning] };
}

/**
 * github_get answers any path: the objects in it that carry an author_association (issues, pull requests,
 * comments, reviews, at the top, in a list or under `items`) are labelled; an answer of a repository's that
 * has none is labelled whole, untrusted (what it holds was not said).
 */
export async function passthroughItems(github: GithubDeps, ctx: AnyToolContext, path: string, value: unknown): Promise<Provenance> {
  const m = /^\/repos\/([^/?]+)\/([^/?]+)/.exec(path);
  if (m === null) return wholeAnswer(path, 'github:unknown', 'not a repository path');
  const repo = { owner: decodeURIComponent(m[1]!), repo: decodeURIComponent(m[2]!) };
  const carries = (o: unknown): boolean => o !== null && typeof o === 'object' && 'author_association' in o;
  const list = Array.isArray(value) ? value : Array.isArray((value as { items?: unknown } | null)?.items) ? (value as { items: unknown[] }).items : undefined;
  if (list === undefined ? !carries(value) : !list.some(carries)) return wholeAnswer(path, repoTarget(repo), 'no author_association in the answer');
  const visibility = await repositoryVisibility(github, ctx, repo.owner, repo.repo);
  const where = { owner: repo.owner, name: repo.repo };
  const base: ReadonlyArray<string | number> = Array.isArray(value) || list === undefined ? [] : ['items'];
  const labels =
    list === undefined
      ? [itemLabel(value, [], where, visibility)]
      : list.flatMap((item, i) => (carries(item) ? [itemLabel(item, [...base, i], where, visibility)] : []));
  return { labels, warnings: visibility.warning === undefined ? [] : [visibility.warning] };
}

function wholeAnswer(path: string, resource: string, why: string): Provenance {
  const label: ProvenanceLabel = {
    item: `GET ${path}`,
    resource,
    integrity: 'untrusted',
    confidentiality: 'private',
    assumed: true,
    author: null,
    why,
    at: [],
    fields: [],
  };
  return { labels: [label], warnings: [] };
}

/** A pull request's diff: whoever wrote the pull request wrote it, and the diff does not say who; untrusted. */
export async function diffLabel(github: GithubDeps, ctx: AnyToolContext, args: { owner: string; repo: string; pullNumber: number }): Promise<Provenance> {
  const visibility = await repositoryVisibility(github, ctx, args.owner, args.repo);
  const name = `${args.owner}/${args.repo}`;
  const label: ProvenanceLabel = {
    item: `${name}#${args.pullNumber} (diff)`,
    resource: resourceKey('github', name),
    integrity: 'untrusted',
    confidentiality: visibility.confidentiality,
    ...(visibility.known ? {} : { assumed: true }),
    author: null,
    why: `a diff does not name its author; ${visibility.why}`,
    at: [],
    fields: [],
  };
  return { labels: [label], warnings: visibility.warning === undefined ? [] : [visibility.warning] };
}

/** The job and its run, read to tell a fork's build from the repository's own. */
export const JOB_RUN_LOOKUPS: FurtherRoute[] = [
  { method: 'GET', path: '/repos/*/*/actions/jobs/*' },
  { method: 'GET', path: '/repos/*/*/actions/runs/*' },
];

/**
 * What a run says of whose code it built: a run whose head repository is not the repository itself built a
 * fork's code (a pull request from a fork), whose output is untrusted; the repository's own branch, trusted.
 */
export function runTrust(run: unknown): { integrity: Integrity; why: string; visibility: Visibility } {
  const r = (run ?? {}) as { head_repository?: { full_name?: unknown }; repository?: { full_name?: unknown } };
  const head = r.head_repository?.full_name;
  const base = r.repository?.full_name;
  const visibility = visibilityOf(r.repository);
  if (typeof head !== 'string' || typeof base !== 'string') return { integrity: 'untrusted', why: 'the run does not name its head repository', visibility };
  if (head.toLowerCase() !== base.toLowerCase()) return { integrity: 'untrusted', why: `a build of the fork ${head}`, visibility };
  return { integrity: 'trusted', why: "a build of the repository's own branch", visibility };
}

/** A job's log: trusted when its run built the repository's own code, untrusted for a fork's; a failed lookup, untrusted. */
export async function jobLogLabel(github: GithubDeps, ctx: AnyToolContext, args: { owner: string; repo: string; jobId: number }): Promise<Provenance> {
  const name = `${args.owner}/${args.repo}`;
  const base = `/repos/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}/actions`;
  let trust: ReturnType<typeof runTrust>;
  let warning: string | undefined;
  try {
    const job = (await github.upstream.send(ctx, { method: 'GET', path: `${base}/jobs/${args.jobId}` })).body as { run_id?: unknown };
    if (typeof job?.run_id !== 'number') throw new Error('the job does not name its run');
    trust = runTrust((await github.upstream.send(ctx, { method: 'GET', path: `${base}/runs/${job.run_id}` })).body);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    warning = `The run of job ${args.jobId} of ${name} could not be read (${error instanceof Error ? error.message : String(error)}): its log is labelled untrusted and private.`;
    trust = {
      integrity: 'untrusted',
      why: 'whose code the run built is unknown',
      visibility: { confidentiality: 'private', known: false, why: 'repository visibility unknown' },
    };
  }
  const label: ProvenanceLabel = {
    item: `${name} job ${args.jobId} (log)`,
    resource: resourceKey('github', name),
    integrity: trust.integrity,
    confidentiality: trust.visibility.confidentiality,
    ...(trust.visibility.known ? {} : { assumed: true }),
    author: null,
    why: `${trust.why}; ${trust.visibility.why}`,
    at: [],
    fields: [],
  };
  return { labels: [label], warnings: warning === undefined ? [] : [warning] };
}

/**
 * A list of repositories: each description is written by whoever administers that repository (anyone's, for
 * another owner's), and GitHub does not say who: untrusted; as private as each repository says it is.
 */
export function repositoryListLabels(value: unknown): Provenance {
  if (!Array.isArray(value)) return { labels: [], warnings: [] };
  const labels = value.map((repo, i): ProvenanceLabel => {
    const r = (repo ?? {}) as { full_name?: unknown; owner?: { login?: unknown }; html_url?: unknown };
    const name = typeof r.full_name === 'string' ? r.full_name : '?';
    const visibility = visibilityOf(repo);
    return {
      item: `${name} (description)`,
      resource: resourceKey('github', name),
      integrity: 'untrusted',
      confidentiality: visibility.confidentiality,
      ...(visibility.known ? {} : { assumed: true }),
      author: typeof r.owner?.login === 'string' ? r.owner.login : null,
      why: `a description does not name its author; ${visibility.why}`,
      ...(typeof r.html_url === 'string' ? { url: r.html_url } : {}),
      at: [i],
      fields: ['description'],
    };
  });
  return { labels, warnings: [] };
}

/** A page of runs: each run's title (a pull request's, or a commit's message) is a fork's when the run built one. */
export function workflowRunLabels(value: unknown): Provenance {
  const runs = (value as { workflow_runs?: unknown } | null)?.workflow_runs;
  if (!Array.isArray(runs)) return { labels: [], warnings: [] };
  const labels = runs.flatMap((run, i): ProvenanceLabel[] => {
    const r = (run ?? {}) as { id?: unknown; repository?: { full_name?: unknown }; actor?: { login?: unknown }; html_url?: unknown };
    const name = typeof r.repository?.full_name === 'string' ? r.repository.full_name : '?';
    const trust = runTrust(run);
    const shared = {
      item: `${name} run ${String(r.id ?? '?')}`,
      resource: resourceKey('github', name),
      integrity: trust.integrity,
      confidentiality: trust.visibility.confidentiality,
      ...(trust.visibility.known ? {} : { assumed: true }),
      author: typeof r.actor?.login === 'string' ? r.actor.login : null,
      why: `${trust.why}; ${trust.visibility.why}`,
      ...(typeof r.html_url === 'string' ? { url: r.html_url } : {}),
    };
    return [
      { ...shared, at: ['workflow_runs', i], fields: ['display_title'] },
      { ...shared, at: ['workflow_runs', i, 'head_commit'], fields: ['message'] },
    ];
  });
  return { labels, warnings: [] };
}
