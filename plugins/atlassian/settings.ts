import Type from 'typebox';
import { lenient, secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { transportLimitsFrom } from '../../core/http/vendor-settings.js';

export type AtlassianProduct = 'jira' | 'confluence' | 'bitbucket';

/**
 * The `~/.mcp/configs.json` sections the reference server of a product reads, in its order of preference, so an
 * existing configuration keeps working: `{"jira": {"environments": {...}}}`, `"atlassian-jira"`, and the
 * scoped and unscoped package names.
 */
export function referenceConfigSections(product: AtlassianProduct): string[] {
  return [product, `atlassian-${product}`, `@aashari/mcp-server-atlassian-${product}`, `mcp-server-atlassian-${product}`];
}

// One schema object per shared key: Jira, Confluence and Bitbucket declare the same setting identically.
const SITE_NAME = Type.String({ default: '', description: 'Atlassian Cloud site name: "acme" for https://acme.atlassian.net (Jira and Confluence).' });
const USER_EMAIL = Type.String({ default: '', description: 'Email of the Atlassian account the API token belongs to (Basic auth).' });
const API_TOKEN = secret(Type.String({ default: '', description: 'Atlassian API token of ATLASSIAN_USER_EMAIL (Basic auth).' }));
const REQUEST_TIMEOUT = lenient(
  Type.Integer({
    minimum: 0,
    default: 0,
    description: 'Timeout of one Atlassian request in ms, as the reference servers read it; 0 uses MCP_REQUEST_TIMEOUT_MS.',
  }),
);

/** Account settings every Atlassian product reads. */
export const AccountSettings = {
  ATLASSIAN_USER_EMAIL: USER_EMAIL,
  ATLASSIAN_API_TOKEN: API_TOKEN,
  ATLASSIAN_REQUEST_TIMEOUT: REQUEST_TIMEOUT,
};

const RequestTimeoutSetting = Type.Object({ ATLASSIAN_REQUEST_TIMEOUT: REQUEST_TIMEOUT });

/** The Atlassian account, as one schema to read the settings with. */
export const AccountSettingsSchema = Type.Object(AccountSettings);

/** Jira and Confluence Cloud also need the site. */
export const SiteAccountSettings = { ATLASSIAN_SITE_NAME: SITE_NAME, ...AccountSettings };
export const SiteAccountSettingsSchema = Type.Object(SiteAccountSettings);

/** A comma-separated list of API path prefixes, the one product boundary check on a shared site. */
export function apiPrefixesSetting(defaultPrefixes: string, what: string): ReturnType<typeof Type.String> {
  return Type.String({ default: defaultPrefixes, description: `Comma-separated path prefixes ${what}; change them for Data Center / Server.` });
}

/** Core transport limits, with ATLASSIAN_REQUEST_TIMEOUT taking over the timeout when it is set. */
export function atlassianTransportLimits(settings: Settings): ReturnType<typeof transportLimitsFrom> & { timeoutSetting?: string } {
  const limits = transportLimitsFrom(settings);
  const timeout = settings.of(RequestTimeoutSetting).ATLASSIAN_REQUEST_TIMEOUT;
  return timeout > 0 ? { ...limits, timeoutMs: timeout, timeoutSetting: 'ATLASSIAN_REQUEST_TIMEOUT' } : limits;
}

/** `Authorization: Basic` of `user:secret`. */
export function basicAuth(user: string, secretValue: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${secretValue}`).toString('base64')}` };
}
