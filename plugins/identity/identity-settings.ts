import Type, { type Static } from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';

const text = (description: string) => Type.String({ default: '', description });

/**
 * The settings of linked accounts: the vault's key and retention, and the OAuth app each vendor's browser
 * linking uses. Each vendor's callback is `<public URL>/identity/callback/<vendor>` (docs/identity.md).
 */
export const IdentitySettings = Type.Object({
  MCP_VAULT_KEY: secret(
    text(
      'Key of the vault of linked accounts: 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32). Empty (and no MCP_VAULT_KEY_FILE): no vault, no linked accounts.',
    ),
  ),
  MCP_VAULT_KEY_FILE: text('File holding the vault key instead of MCP_VAULT_KEY (a mounted secret); set one of the two.'),
  MCP_VAULT_IDLE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 90,
    description: 'A linked account unused this many days is forgotten (each use renews it).',
  }),
  GITHUB_OAUTH_CLIENT_ID: text('Client id of the GitHub OAuth App or GitHub App people link their GitHub account with (web and device flow).'),
  GITHUB_OAUTH_CLIENT_SECRET: secret(text('Client secret of that app; empty for device-flow-only linking on a local stdio server.')),
  GITHUB_OAUTH_CLIENT_TYPE: Type.Union([Type.Literal('oauth-app'), Type.Literal('github-app')], {
    default: 'oauth-app',
    description: 'oauth-app, or github-app for a GitHub App acting for the person (user tokens that expire after 8 hours and are renewed).',
  }),
  GITHUB_OAUTH_SCOPES: Type.String({
    default: 'repo workflow read:org',
    description: "Scopes an OAuth App asks for (a GitHub App's permissions are set on the app).",
  }),
  ATLASSIAN_OAUTH_CLIENT_ID: text('Client id of the Atlassian OAuth 2.0 (3LO) app people link their Atlassian Cloud account (Jira and Confluence) with.'),
  ATLASSIAN_OAUTH_CLIENT_SECRET: secret(text('Secret of that app.')),
  ATLASSIAN_OAUTH_AUTH_URL: Type.String({
    default: 'https://auth.atlassian.com',
    description: "Atlassian's authorization server (consent page and token endpoint); change it only for a proxy.",
  }),
  ATLASSIAN_OAUTH_SCOPES: Type.String({
    default:
      'read:jira-work write:jira-work read:jira-user read:confluence-content.all write:confluence-content read:confluence-space.summary search:confluence read:me',
    description: 'Scopes the 3LO app asks for (offline_access is always added).',
  }),
  BITBUCKET_OAUTH_CLIENT_ID: text(
    'Key of the Bitbucket Cloud OAuth consumer people link their Bitbucket account with (its permissions are chosen on the consumer).',
  ),
  BITBUCKET_OAUTH_CLIENT_SECRET: secret(text('Secret of that consumer.')),
});

export type IdentitySettingValues = Static<typeof IdentitySettings>;
