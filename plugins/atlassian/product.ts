import Type from 'typebox';
import { lenient, secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { StartupError, ToolError } from '../../core/errors/tool-error.js';
import { transportLimitsFrom } from '../../core/http/vendor-settings.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';

/*
 * What every Atlassian product (Jira, Confluence, Bitbucket) shares: the account settings and how they
 * authenticate, the request headers, and the product boundary (where a product's API lives on its origin).
 */

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
/** Atlassian Cloud's API gateway, where calls made with a person's linked (3LO) account go, by the site's cloud id. */
const API_GATEWAY = Type.String({
  default: 'https://api.atlassian.com',
  description:
    "Atlassian Cloud's API gateway, for calls acting with a person's linked account (JIRA_CREDENTIALS, CONFLUENCE_CREDENTIALS); change it only for a proxy.",
});

export const SiteAccountSettings = { ATLASSIAN_SITE_NAME: SITE_NAME, ...AccountSettings, ATLASSIAN_API_GATEWAY_URL: API_GATEWAY };
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

/** Headers of every Atlassian request: JSON wanted, and who is asking. */
export const ATLASSIAN_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: 'application/json',
  'user-agent': `${SERVER_NAME}/${VERSION}`,
});

/** Where a product's API lives on its origin, and how paths given to its tools are mapped there. */
export interface ProductPaths {
  label: string;
  /** The setting the prefixes came from, named in errors so a Data Center user knows what to change. */
  settingKey: string;
  prefixes: readonly string[];
  /** Bitbucket's rule: a path that does not already start with a prefix gets the first one prepended. */
  prependFirst: boolean;
  /** A path that works, shown in errors. */
  example: string;
}

/**
 * Parses a prefix list such as "/rest/, /wiki/" into normalised prefixes ("/rest", "/wiki"). A bad list is a
 * configuration error, reported at start-up with the setting named.
 */
export function parseApiPrefixes(value: string, settingKey: string): string[] {
  const prefixes = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => p.replace(/\/+$/, ''));
  if (prefixes.length === 0) throw new StartupError(`${settingKey} is empty: give at least one API path prefix such as /rest/.`);
  for (const p of prefixes) {
    if (!/^\/[A-Za-z0-9._~\-/]*$/.test(p) || p.split('/').some((s) => s === '.' || s === '..')) {
      throw new StartupError(`${settingKey} holds ${JSON.stringify(p)}, which is not a path prefix: use plain segments starting with /, such as /rest/.`);
    }
  }
  return prefixes;
}

/**
 * The product boundary: after the generic path safety checks, a path must lie under one of the product's API
 * prefixes, so one product's tool cannot call another product's API on a shared site (jira_get on /wiki/...).
 * Returns the path as it is sent (Bitbucket's prefix prepended).
 */
export function mapProductPath(path: string, product: ProductPaths): string {
  let mapped = path;
  // The reference's test is a plain startsWith (a path starting "/2.0" is taken as is); the boundary below is
  // segment-aware, so "/2.0x" is refused rather than sent.
  if (product.prependFirst && !product.prefixes.some((p) => mapped.startsWith(p))) mapped = product.prefixes[0] + mapped;
  const [pathPart = ''] = mapped.split('?', 1);
  if (product.prefixes.some((p) => pathPart === p || pathPart.startsWith(`${p}/`))) return mapped;
  const list = product.prefixes.map((p) => `${p}/`).join(', ');
  throw new ToolError(
    'invalid_path',
    `The path ${JSON.stringify(path)} is not a ${product.label} API path: ${product.label} paths start with ${list} (e.g. ${product.example}). ` +
      `If this ${product.label} serves its API elsewhere (Data Center / Server), set ${product.settingKey}.`,
  );
}
