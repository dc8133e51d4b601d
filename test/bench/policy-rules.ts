import type { CallFacts } from '../../plugins/policy/engine/call-facts.js';

/**
 * A large policy shaped like a real company's: per-team Jira write rules, frozen repositories, per-person
 * approval rules, production tokens kept for release teams, argument rules, and a final read rule. Used by
 * the decision benchmark and by the test that the fast path decides exactly as `explain` does.
 */
export function generatePolicy(ruleCount: number): string {
  const rules: string[] = [];
  for (let i = 0; rules.length < ruleCount - 1; i++) {
    switch (i % 5) {
      case 0:
        rules.push(
          `  - id: team-${i}-jira-writes\n    effect: allow\n    match: { vendors: [jira], methods: [POST, PUT], paths: ["/rest/api/3/issue/P${i}-*", /rest/api/3/issue], groups: [team-${i % 40}] }`,
        );
        break;
      case 1:
        rules.push(
          `  - id: repo-${i}-frozen\n    effect: deny\n    reason: Repository repo-${i} is frozen.\n    match: { vendors: [github], paths: ["/repos/acme/repo-${i}/*"], readOnly: false }`,
        );
        break;
      case 2:
        rules.push(`  - id: user-${i}-deletes\n    effect: approval_required\n    match: { subjects: [user-${i % 100}], tools: ["*_delete"] }`);
        break;
      case 3:
        rules.push(
          `  - id: env-${i}-release-only\n    effect: deny\n    match: { vendors: [circleci], environments: [prod-${i % 7}] }\n    except: { groups: [release-${i % 7}] }`,
        );
        break;
      default:
        rules.push(
          `  - id: args-${i}-no-key\n    effect: deny\n    match: { tools: [jira_post, jira_put], args: { body.fields.project.key: [K${i}, Q${i}] } }`,
        );
    }
  }
  rules.push('  - id: everyone-reads\n    effect: allow\n    match: { readOnly: true }');
  return `version: 1\nrules:\n${rules.join('\n')}\n`;
}

const TOOLS = [
  { tool: 'jira_get', vendor: 'jira', readOnly: true, method: 'GET' },
  { tool: 'jira_post', vendor: 'jira', readOnly: false, method: 'POST' },
  { tool: 'jira_put', vendor: 'jira', readOnly: false, method: 'PUT' },
  { tool: 'jira_delete', vendor: 'jira', readOnly: false, method: 'DELETE' },
  { tool: 'circleci_get', vendor: 'circleci', readOnly: true, method: 'GET' },
  { tool: 'circleci_post', vendor: 'circleci', readOnly: false, method: 'POST' },
  { tool: 'github_post', vendor: 'github', readOnly: false, method: 'POST' },
] as const;

/** A deterministic pseudo-random sequence (mulberry32), so failures reproduce. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Calls of the kinds the generated policy speaks about, from `subjects` callers. */
export function randomFacts(next: () => number, subjects = 100): CallFacts {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const t = pick(TOOLS);
  const n = Math.floor(next() * 500);
  // A caller's groups are fixed, and so is each vendor's credential: as in a running server.
  const user = Math.floor(next() * subjects);
  const path =
    t.vendor === 'jira'
      ? pick([`/rest/api/3/issue/P${n}-${n}`, '/rest/api/3/issue', `/rest/api/3/search/jql`])
      : t.vendor === 'github'
        ? `/repos/acme/repo-${n}/issues`
        : `/api/v2/project/gh/acme/app-${n}/pipeline`;
  return {
    tool: t.tool,
    vendor: t.vendor,
    readOnly: t.readOnly,
    identity: {
      vendor: t.vendor,
      credential: `${t.vendor}-bot`,
      host: `${t.vendor}.example.com`,
      environment: t.vendor === 'circleci' ? 'prod-3' : 'production',
    },
    subject: `user-${user}`,
    groups: [`team-${user % 40}`, ['release-1', 'release-3', 'developers'][user % 3]!],
    method: t.method,
    path,
    args: { path, body: { fields: { project: { key: pick([`K${n}`, `Q${n}`, 'PLAT']) } } } },
  };
}
