import { resourceKey, type Provenance, type ProvenanceLabel } from '../../core/plugin/provenance.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { authorOf, AuthorTrustLookup, groupNames, type AtlassianTrust, type Author, type AuthorTrust } from '../atlassian/author-trust.js';
import { PlaceLookup, type PlaceVisibility } from '../atlassian/place-visibility.js';
import { jiraApi, type JiraDeps } from './jira-api.js';

// Whose words a Jira answer carries (docs/untrusted-content.md#how-trust-is-derived-per-vendor): an issue's
// summary and description are its reporter's (its creator's when the answer names one), a comment is its last
// editor's; trust comes from the operator's groups and domains (atlassian/author-trust.ts). A project is
// public when its permission scheme grants Browse Projects to anyone (anonymous); anything else is private.

/** The project of an issue key (`PLAT-12` is PLAT's); an id names none. */
export const projectOfKey = (key: string): string | undefined => /^([A-Za-z][A-Za-z0-9_]*)-[0-9]+$/.exec(key)?.[1]?.toUpperCase();

/** The write target of a tool writing to an issue or a project, as flow rules name it. */
export const jiraTarget = (project: string | undefined): string | undefined => (project === undefined ? undefined : resourceKey('jira', project));

/** The requests labelling may send beyond the tool's route: a project's permission scheme, an author's groups. */
export function labellingReads(upstream: UpstreamBinding | undefined): FurtherRoute[] {
  const api = jiraApi(upstream);
  return [
    { method: 'GET', path: `${api.base}/project/*/permissionscheme` },
    api.deployment === 'cloud' ? { method: 'GET', path: `${api.base}/user/groups` } : { method: 'GET', path: `${api.base}/user` },
  ];
}

/** True when a permission scheme (`?expand=permissions`) grants Browse Projects to anyone, logged in or not. */
function anonymousBrowse(body: unknown): boolean {
  const permissions = (body as { permissions?: unknown } | null)?.permissions;
  if (!Array.isArray(permissions)) return false;
  return permissions.some((p) => {
    const grant = p as { permission?: unknown; holder?: { type?: unknown } } | null;
    return grant?.permission === 'BROWSE_PROJECTS' && grant.holder?.type === 'anyone';
  });
}

/** One call's labelling: its author and project lookups, and the labels made so far. */
export class JiraLabeller {
  private readonly authors: AuthorTrustLookup;
  private readonly projects: PlaceLookup;
  private readonly warnings = new Set<string>();

  constructor({ upstream: jira, trust }: JiraDeps & { trust: AtlassianTrust }, ctx: AnyToolContext) {
    const api = jiraApi(jira);
    this.authors = new AuthorTrustLookup(
      trust,
      `jira|${jira.identity.host}`,
      async (author) => {
        // Cloud: the account's groups; Data Center: the user with its groups (and address) in one answer.
        const request =
          api.deployment === 'cloud'
            ? { method: 'GET' as const, path: `${api.base}/user/groups`, query: { accountId: author.id! } }
            : { method: 'GET' as const, path: `${api.base}/user`, query: { username: author.id!, expand: 'groups' } };
        const body = (await jira.send(ctx, request, { expect: 'json' })).body;
        const email = (body as { emailAddress?: unknown } | null)?.emailAddress;
        return { groups: groupNames(body), email: typeof email === 'string' ? email : null };
      },
      () => ctx.signal.aborted,
    );
    this.projects = new PlaceLookup(
      jira,
      ctx,
      'project',
      (project) => ({ method: 'GET', path: `${api.base}/project/${encodeURIComponent(project)}/permissionscheme`, query: { expand: 'permissions' } }),
      anonymousBrowse,
    );
  }

  private note(...found: Array<{ warning?: string }>): void {
    for (const f of found) if (f.warning !== undefined) this.warnings.add(f.warning);
  }

  private async place(project: string | undefined): Promise<PlaceVisibility> {
    if (project === undefined) return { confidentiality: 'private', known: false, why: 'project unknown' };
    const visibility = await this.projects.of(project);
    this.note(visibility);
    return visibility;
  }

  private async author(person: unknown): Promise<{ author: Author; trust: AuthorTrust }> {
    const author = authorOf(person);
    const trust = await this.authors.trustOf(author);
    this.note(trust);
    return { author, trust };
  }

  /** The label of an issue's own text (summary, description, environment) found at `at`. */
  async issue(key: string, fields: Record<string, unknown>, at: ReadonlyArray<string | number>, url: string, textAt: string[]): Promise<ProvenanceLabel> {
    const project = projectOfKey(key);
    const visibility = await this.place(project);
    const who = fields.creator ?? fields.reporter;
    const { author, trust } =
      who === undefined
        ? { author: { id: null, email: null }, trust: { integrity: 'untrusted' as const, why: 'reporter not in the fields' } }
        : await this.author(who);
    return this.label(key, project, author, trust, visibility, at, textAt, url);
  }

  /** The label of one comment of an issue (its last editor's words). */
  async comment(
    key: string,
    comment: { id?: unknown; author?: unknown; updateAuthor?: unknown },
    at: ReadonlyArray<string | number>,
    url: string,
  ): Promise<ProvenanceLabel> {
    const project = projectOfKey(key);
    const visibility = await this.place(project);
    const { author, trust } = await this.author(comment.updateAuthor ?? comment.author);
    return this.label(`${key} comment ${String(comment.id ?? '?')}`, project, author, trust, visibility, at, ['body'], url);
  }

  private label(
    item: string,
    project: string | undefined,
    author: Author,
    trust: AuthorTrust,
    visibility: PlaceVisibility,
    at: ReadonlyArray<string | number>,
    fields: string[],
    url: string,
  ): ProvenanceLabel {
    return {
      item,
      resource: resourceKey('jira', project ?? 'unknown'),
      integrity: trust.integrity,
      confidentiality: visibility.confidentiality,
      ...(visibility.known ? {} : { assumed: true }),
      author: author.id,
      why: `${trust.why}; ${visibility.why}`,
      url,
      at,
      fields,
    };
  }

  result(labels: ProvenanceLabel[]): Provenance {
    return { labels, warnings: [...this.warnings] };
  }
}
