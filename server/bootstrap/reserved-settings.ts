import { StartupError } from '../../core/errors/tool-error.js';
import type { SettingOwner } from '../../core/config/settings.js';
import type { SettingsLayer } from '../../core/config/sources.js';
import { OWN_SECTION } from '../../core/config/mcp-configs-placement.js';

/**
 * The settings of the built-in vendor plugins, each with the plugins that declare it and whether it is a secret.
 * Listed here rather than read from the plugins, which a server that does not serve them never loads; a test
 * (test/server/reserved-settings.test.ts) holds the list to the built-ins' schemas.
 */
export const BUILTIN_VENDOR_SETTINGS: Readonly<Record<string, { readonly plugins: readonly string[]; readonly secret: boolean }>> = {
  ATLASSIAN_API_GATEWAY_URL: { plugins: ['jira', 'confluence'], secret: false },
  ATLASSIAN_API_TOKEN: { plugins: ['jira', 'confluence', 'bitbucket', 'ci'], secret: true },
  ATLASSIAN_BITBUCKET_APP_PASSWORD: { plugins: ['bitbucket', 'ci'], secret: true },
  ATLASSIAN_BITBUCKET_USERNAME: { plugins: ['bitbucket', 'ci'], secret: false },
  ATLASSIAN_REQUEST_TIMEOUT: { plugins: ['jira', 'confluence', 'bitbucket'], secret: false },
  ATLASSIAN_SITE_NAME: { plugins: ['jira', 'confluence'], secret: false },
  ATLASSIAN_USER_EMAIL: { plugins: ['jira', 'confluence', 'bitbucket', 'ci'], secret: false },
  BITBUCKET_ACCESS_TOKEN: { plugins: ['bitbucket', 'ci'], secret: true },
  BITBUCKET_API_PREFIXES: { plugins: ['bitbucket'], secret: false },
  BITBUCKET_BASE_URL: { plugins: ['bitbucket', 'ci'], secret: false },
  BITBUCKET_CREDENTIAL_LABEL: { plugins: ['bitbucket', 'ci'], secret: false },
  BITBUCKET_DEFAULT_WORKSPACE: { plugins: ['bitbucket'], secret: false },
  BITBUCKET_DEPLOYMENT: { plugins: ['bitbucket'], secret: false },
  BITBUCKET_ENVIRONMENT: { plugins: ['bitbucket', 'ci'], secret: false },
  CIRCLECI_BASE_URL: { plugins: ['circleci', 'ci'], secret: false },
  CIRCLECI_CREDENTIALS: { plugins: ['circleci'], secret: false },
  CIRCLECI_CREDENTIAL_LABEL: { plugins: ['circleci', 'ci'], secret: false },
  CIRCLECI_ENVIRONMENT: { plugins: ['circleci', 'ci'], secret: false },
  CIRCLECI_TOKEN: { plugins: ['circleci', 'ci'], secret: true },
  CI_WAIT_POLL_MS: { plugins: ['github', 'circleci', 'bitbucket', 'ci'], secret: false },
  CONFLUENCE_API_PREFIXES: { plugins: ['confluence'], secret: false },
  CONFLUENCE_BASE_URL: { plugins: ['confluence'], secret: false },
  CONFLUENCE_CREDENTIALS: { plugins: ['confluence'], secret: false },
  CONFLUENCE_CREDENTIAL_LABEL: { plugins: ['confluence'], secret: false },
  CONFLUENCE_DEPLOYMENT: { plugins: ['confluence'], secret: false },
  CONFLUENCE_ENVIRONMENT: { plugins: ['confluence'], secret: false },
  CONFLUENCE_PERSONAL_TOKEN: { plugins: ['confluence'], secret: true },
  GITHUB_API_URL: { plugins: ['github', 'ci'], secret: false },
  GITHUB_CREDENTIALS: { plugins: ['github'], secret: false },
  GITHUB_CREDENTIAL_LABEL: { plugins: ['github', 'ci'], secret: false },
  GITHUB_ENVIRONMENT: { plugins: ['github', 'ci'], secret: false },
  GITHUB_GRAPHQL_MAX_BYTES: { plugins: ['github'], secret: false },
  GITHUB_GRAPHQL_MAX_DEPTH: { plugins: ['github'], secret: false },
  GITHUB_GRAPHQL_MAX_FIELDS: { plugins: ['github'], secret: false },
  GITHUB_GRAPHQL_MUTATIONS: { plugins: ['github'], secret: false },
  GITHUB_TOKEN: { plugins: ['github', 'ci'], secret: true },
  JIRA_API_PREFIXES: { plugins: ['jira'], secret: false },
  JIRA_BASE_URL: { plugins: ['jira'], secret: false },
  JIRA_CREDENTIALS: { plugins: ['jira'], secret: false },
  JIRA_CREDENTIAL_LABEL: { plugins: ['jira'], secret: false },
  JIRA_DEPLOYMENT: { plugins: ['jira'], secret: false },
  JIRA_ENVIRONMENT: { plugins: ['jira'], secret: false },
  JIRA_PERSONAL_TOKEN: { plugins: ['jira'], secret: true },
  MCP_TRUSTED_DOMAINS: { plugins: ['jira', 'confluence'], secret: false },
  MCP_TRUSTED_GROUPS: { plugins: ['jira', 'confluence'], secret: false },
  UPLOAD_MAX_FILE_BYTES: { plugins: ['bitbucket'], secret: false },
  UPLOAD_MAX_TOTAL_BYTES: { plugins: ['bitbucket'], secret: false },
};

/**
 * Refuses a third-party plugin that declares a built-in vendor's setting, loaded or not. Declared again, a name
 * such as GITHUB_TOKEN would hand that plugin the built-in's credential, and a declaration that is not a secret
 * would show it (`mcp-devtools config`, a value that fails validation): the message names the key, never its value.
 */
export function refuseReservedSettings(owner: SettingOwner): void {
  for (const key of Object.keys(owner.schema.properties)) {
    const reserved = BUILTIN_VENDOR_SETTINGS[key];
    if (reserved === undefined) continue;
    const builtins = reserved.plugins.length === 1 ? `the built-in ${reserved.plugins[0]} plugin` : `the built-in ${listed(reserved.plugins)} plugins`;
    const prefix = (owner.name.split(/[-_]/)[0] ?? 'acme').toUpperCase();
    const suggestion = `${prefix}_${key.slice(key.indexOf('_') + 1)}`;
    throw new StartupError(
      `Plugin "${owner.name}" declares the setting ${key}, which belongs to ${builtins}: the built-in settings' names are reserved, whether or not that plugin is loaded, so that no plugin reads or shows their values. Name it after your plugin, such as ${suggestion}.`,
    );
  }
}

/**
 * The values of built-in secret settings that no loaded plugin declares, wherever they are set (the environment,
 * ./.env, ~/.mcp/configs.json, the config file): scrubbed from every log line and result like a declared secret,
 * so a GITHUB_TOKEN in the environment of a server that serves only Jira is never echoed either.
 */
export function undeclaredSecretValues(declared: ReadonlySet<string>, layers: readonly SettingsLayer[]): string[] {
  const values: string[] = [];
  for (const [key, { plugins, secret }] of Object.entries(BUILTIN_VENDOR_SETTINGS)) {
    if (!secret || declared.has(key)) continue;
    for (const layer of layers) {
      const found = layer.lookup(key, [...plugins, OWN_SECTION]);
      if (typeof found?.value === 'string' && found.value !== '') values.push(found.value);
    }
  }
  return values;
}

const listed = (names: readonly string[]): string => `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
