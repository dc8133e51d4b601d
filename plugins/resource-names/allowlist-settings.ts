import Type, { type Static } from 'typebox';

/** Settings of the allowlists plugin (docs/policy.md#allowlists): unset, every resource is allowed. */
export const AllowlistSettings = Type.Object({
  MCP_ALLOW_REPOS: Type.String({
    default: '',
    description:
      'Comma-separated GitHub repositories (owner/repo, * within a part: acme/*) calls may name; unset allows all. A request naming another is refused before it is sent; its items are left out of search results.',
  }),
  MCP_ALLOW_JIRA_PROJECTS: Type.String({
    default: '',
    description:
      'Comma-separated Jira project keys (PLAT, OPS) whose issues and projects calls may name; unset allows all. Issues of others are left out of JQL search results.',
  }),
  MCP_ALLOW_CONFLUENCE_SPACES: Type.String({
    default: '',
    description: 'Comma-separated Confluence space keys (ENG, DOCS) calls may name; unset allows all. Content of others is left out of CQL search results.',
  }),
  MCP_ALLOW_BITBUCKET_REPOS: Type.String({
    default: '',
    description:
      'Comma-separated Bitbucket repositories (workspace/repo, * within a part: acme/*) calls may name; unset allows all. Others are left out of listings.',
  }),
  MCP_ALLOW_CIRCLECI_PROJECTS: Type.String({
    default: '',
    description: 'Comma-separated CircleCI project slugs (gh/acme/*, circleci/{org id}/*) calls may name; unset allows all. Others are left out of listings.',
  }),
});

export type AllowlistConfig = Static<typeof AllowlistSettings>;

/**
 * Whether any list is set (a value with an entry, as allowlistOf reads it): unset, no result ever carries an
 * `allowlist` member, which code mode's declarations then leave out.
 */
export function anyAllowlistSet(config: AllowlistConfig): boolean {
  return Object.values(config).some((value) => value.split(',').some((entry) => entry.trim() !== ''));
}
