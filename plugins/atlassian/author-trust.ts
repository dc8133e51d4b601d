import Type from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import type { Integrity } from '../../core/plugin/provenance.js';

// Whose words a Jira or Confluence answer carries (docs/untrusted-content.md#how-trust-is-derived-per-vendor).
// Atlassian says nothing like GitHub's author_association: an author is trusted when the operator named one of
// their groups (MCP_TRUSTED_GROUPS) or their e-mail domain (MCP_TRUSTED_DOMAINS). With neither named, every
// author is untrusted; an author whose groups could not be read is untrusted, with a warning.

/** The trust settings Jira and Confluence share (declared by both, like the site account). */
export const AtlassianTrustSettings = {
  MCP_TRUSTED_GROUPS: Type.String({
    default: '',
    description: 'Comma-separated Jira / Confluence group names whose members write trusted text (looked up per author, a minute remembered).',
  }),
  MCP_TRUSTED_DOMAINS: Type.String({
    default: '',
    description: 'Comma-separated e-mail domains whose Jira / Confluence authors write trusted text (example.com), when the vendor shows the address.',
  }),
};

/** What the operator trusts on an Atlassian site: group names and e-mail domains, lower case. */
export interface AtlassianTrust {
  groups: ReadonlySet<string>;
  domains: ReadonlySet<string>;
}

const listOf = (value: string): ReadonlySet<string> =>
  new Set(
    value
      .split(',')
      .map((v) => v.trim().toLowerCase().replace(/^@/, ''))
      .filter((v) => v !== ''),
  );

export function atlassianTrustFrom(settings: Settings): AtlassianTrust {
  return { groups: listOf(settings.get<string>('MCP_TRUSTED_GROUPS')), domains: listOf(settings.get<string>('MCP_TRUSTED_DOMAINS')) };
}

/** An author as Atlassian names them: the account id (Cloud) or user name (Data Center), the address if shown. */
export interface Author {
  /** accountId on Cloud, the user name (or key) on Data Center: what the group lookup asks about. */
  id: string | null;
  email: string | null;
}

/** Reads a Jira or Confluence user object (`author`, `reporter`, `version.by`); anything else is no author. */
export function authorOf(person: unknown): Author {
  if (person === null || typeof person !== 'object') return { id: null, email: null };
  const p = person as { accountId?: unknown; name?: unknown; username?: unknown; key?: unknown; userKey?: unknown; emailAddress?: unknown; email?: unknown };
  const id = [p.accountId, p.name, p.username, p.key, p.userKey].find((v): v is string => typeof v === 'string' && v !== '') ?? null;
  const email = [p.emailAddress, p.email].find((v): v is string => typeof v === 'string' && v.includes('@')) ?? null;
  return { id, email };
}

/** What an author lookup learns: their groups, and their address when the vendor shows it. */
export interface AuthorFacts {
  groups: string[];
  email?: string | null;
}

export interface AuthorTrust {
  integrity: Integrity;
  why: string;
  warning?: string;
}

const LOOKUP_TTL_MS = 60_000;
const remembered = new Map<string, { at: number; facts: AuthorFacts }>();

/** Most authors looked up by one call; the others are untrusted (their label says so). */
export const MAX_AUTHOR_LOOKUPS = 5;

/**
 * Decides each author of one call: by e-mail domain when the answer shows the address, else by groups looked up
 * (at most MAX_AUTHOR_LOOKUPS per call, each remembered a minute per site and author). A lookup that fails
 * leaves the author untrusted with a warning; it never fails the call.
 */
export class AuthorTrustLookup {
  private lookups = 0;
  private readonly decided = new Map<string, AuthorTrust>();

  constructor(
    private readonly trust: AtlassianTrust,
    /** Site and product, so two sites' authors of the same id are never confused. */
    private readonly scope: string,
    private readonly lookup: (author: Author, wantEmail: boolean) => Promise<AuthorFacts>,
    private readonly aborted: () => boolean,
  ) {}

  async trustOf(author: Author): Promise<AuthorTrust> {
    if (author.id === null) return { integrity: 'untrusted', why: 'author not stated' };
    if (this.trust.groups.size === 0 && this.trust.domains.size === 0) {
      return { integrity: 'untrusted', why: 'no MCP_TRUSTED_GROUPS or MCP_TRUSTED_DOMAINS configured' };
    }
    const byDomain = this.domainTrust(author.email);
    if (byDomain !== undefined) return byDomain;
    const key = `${this.scope}|${author.id}`;
    const known = this.decided.get(key);
    if (known !== undefined) return known;
    const decided = await this.lookedUp(author, key);
    this.decided.set(key, decided);
    return decided;
  }

  private domainTrust(email: string | null | undefined): AuthorTrust | undefined {
    if (typeof email !== 'string' || this.trust.domains.size === 0) return undefined;
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    return this.trust.domains.has(domain) ? { integrity: 'trusted', why: `e-mail domain ${domain} is in MCP_TRUSTED_DOMAINS` } : undefined;
  }

  private async lookedUp(author: Author, key: string): Promise<AuthorTrust> {
    // Only what can still decide: groups when some are named, the address when domains are and it was not shown.
    const wantEmail = this.trust.domains.size > 0 && author.email === null;
    if (this.trust.groups.size === 0 && !wantEmail) return { integrity: 'untrusted', why: 'e-mail domain not in MCP_TRUSTED_DOMAINS' };
    let facts = remembered.get(key);
    if (facts === undefined || Date.now() - facts.at >= LOOKUP_TTL_MS) {
      if (this.lookups >= MAX_AUTHOR_LOOKUPS) return { integrity: 'untrusted', why: `author not looked up (${MAX_AUTHOR_LOOKUPS} per call)` };
      this.lookups++;
      try {
        facts = { at: Date.now(), facts: await this.lookup(author, wantEmail) };
      } catch (error) {
        if (this.aborted()) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        return {
          integrity: 'untrusted',
          why: "author's groups unknown",
          warning: `The groups of ${author.id} could not be read (${reason}): their text is labelled untrusted.`,
        };
      }
      if (remembered.size > 1000) remembered.clear();
      remembered.set(key, facts);
    }
    const byDomain = this.domainTrust(facts.facts.email);
    if (byDomain !== undefined) return byDomain;
    const group = facts.facts.groups.find((g) => this.trust.groups.has(g.toLowerCase()));
    if (group !== undefined) return { integrity: 'trusted', why: `member of ${group} (MCP_TRUSTED_GROUPS)` };
    return { integrity: 'untrusted', why: this.trust.groups.size > 0 ? 'in none of MCP_TRUSTED_GROUPS' : 'e-mail domain not in MCP_TRUSTED_DOMAINS' };
  }
}

/** Group names from the shapes Atlassian answers with: a list, `{groups: {items}}`, `{results}`. */
export function groupNames(body: unknown): string[] {
  const list = Array.isArray(body)
    ? body
    : Array.isArray((body as { results?: unknown } | null)?.results)
      ? (body as { results: unknown[] }).results
      : Array.isArray((body as { groups?: { items?: unknown } } | null)?.groups?.items)
        ? (body as { groups: { items: unknown[] } }).groups.items
        : [];
  return list.map((g) => (g as { name?: unknown } | null)?.name).filter((n): n is string => typeof n === 'string');
}
