import type { ConditionsSpec } from '../document/policy-document.js';
import { allowlistOf, type Allowlist } from '../../allowlists/allowlist.js';
import { namedResources, type ListedVendor } from '../../allowlists/named-resources.js';
import type { CallFacts } from './call-facts.js';
import type { Condition } from './conditions.js';

/** Each key of `resources`, the vendor whose requests it reads and how its entries are written. */
const KEYS = {
  repos: { vendor: 'github', parts: 2 },
  bitbucketRepos: { vendor: 'bitbucket', parts: 2 },
  circleciProjects: { vendor: 'circleci', parts: 3 },
  jiraProjects: { vendor: 'jira', parts: 1 },
  confluenceSpaces: { vendor: 'confluence', parts: 1 },
} as const satisfies Record<string, { vendor: ListedVendor; parts: number }>;

/**
 * `resources: {repos: [acme/*], jiraProjects: [PLAT]}`: the allowlists as a rule's condition, so a rule can
 * scope them per group. Holds when the request names at least one resource of its vendor and every one is on
 * that vendor's list here, read from the request as the MCP_ALLOW_* settings read it (named-resources.ts, the
 * same code): a request that names none (`/user`, a search without `repo:`), one of a vendor without a list
 * here, or a resource named in a spelling no list decides (a repository by id) does not match, so an `except`
 * built on it fails closed.
 */
export function resourceCondition(spec: ConditionsSpec['resources']): Condition[] {
  if (spec === undefined) return [];
  const lists = new Map<string, Allowlist>();
  for (const [key, { vendor, parts }] of Object.entries(KEYS)) {
    const patterns = spec[key as keyof typeof KEYS];
    // The document's schema holds each entry to its shape: allowlistOf cannot refuse one here.
    const list = patterns === undefined ? undefined : allowlistOf(`resources.${key}`, patterns.join(','), { parts, example: '' });
    if (list !== undefined) lists.set(vendor, list);
  }
  const named = (f: CallFacts) => (f.request === undefined || !lists.has(f.vendor) ? [] : namedResources(f.vendor as ListedVendor, f.request));
  return [
    {
      key: 'resources',
      level: 'request',
      expected: [...Object.entries(spec)].map(([k, v]) => `${k}: ${(v as string[]).join(', ')}`).join('; '),
      test: (f) => {
        const list = lists.get(f.vendor);
        const all = named(f);
        return (
          list !== undefined &&
          all.length > 0 &&
          all.every((n) => (n.kind === 'resource' ? list.allows(n.value) : n.kind === 'container' ? list.allowsPrefix(n.value) : false))
        );
      },
      actual: (f) => {
        const all = named(f);
        return all.length === 0 ? '(none)' : all.map((n) => (n.kind === 'undecidable' ? n.what : n.value)).join(', ');
      },
    },
  ];
}
