import type { Settings } from '../../core/config/settings.js';
import { UpstreamClient } from '../../core/http/upstream-client.js';
import { identityFrom } from '../../core/http/vendor-settings.js';
import { mapProductPath, parseApiPrefixes, type ProductPaths } from './api-paths.js';
import { ATLASSIAN_HEADERS } from './request-headers.js';
import { atlassianTransportLimits, basicAuth, SiteAccountSettingsSchema } from './settings.js';
import type { SiteProduct } from './site-product.js';

const SITE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * The base URL of a product whose site is not configured. It is never requested (a call fails on the missing
 * settings first) and the reserved `.invalid` name could not resolve if it were.
 */
const UNCONFIGURED_BASE_URL = 'https://unconfigured.invalid';

/**
 * The client of a site product: Basic auth with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN, the base URL
 * `https://${ATLASSIAN_SITE_NAME}.atlassian.net` unless `<PRODUCT>_BASE_URL` overrides it, and the product's
 * path boundary. Missing settings do not stop start-up: a call reports what to set, before any request.
 */
export function createSiteClient(settings: Settings, product: SiteProduct): UpstreamClient {
  const { ATLASSIAN_USER_EMAIL: email, ATLASSIAN_API_TOKEN: token, ATLASSIAN_SITE_NAME } = settings.of(SiteAccountSettingsSchema);
  const base = siteBaseUrl(ATLASSIAN_SITE_NAME, settings.get<string>(`${product.settingsPrefix}_BASE_URL`), product);
  const missing = [...(base.missing ?? []), ...(email === '' ? ['ATLASSIAN_USER_EMAIL'] : []), ...(token === '' ? ['ATLASSIAN_API_TOKEN'] : [])];
  const problem =
    base.problem ??
    (missing.length === 0
      ? undefined
      : `${product.label} is not configured: set ${missing.join(', ')} (in the environment, ./.env, or the "${product.vendor}" section of ~/.mcp/configs.json). ` +
        'ATLASSIAN_API_TOKEN is an API token of the ATLASSIAN_USER_EMAIL account.');
  const prefixesKey = `${product.settingsPrefix}_API_PREFIXES`;
  const paths: ProductPaths = {
    label: product.label,
    settingKey: prefixesKey,
    prefixes: parseApiPrefixes(settings.get<string>(prefixesKey), prefixesKey),
    prependFirst: false,
    example: product.examplePath,
  };
  return new UpstreamClient({
    vendor: product.vendor,
    label: product.label,
    baseUrl: base.url ?? UNCONFIGURED_BASE_URL,
    baseUrlSetting: `${product.settingsPrefix}_BASE_URL`,
    auth: () => (problem === undefined ? basicAuth(email, token) : undefined),
    missingCredentials: problem ?? '',
    secretMaterial: () => `${email}\0${token}`,
    ...identityFrom(settings, product.settingsPrefix),
    headers: ATLASSIAN_HEADERS,
    mapPath: (path) => mapProductPath(path, paths),
    ...atlassianTransportLimits(settings),
    expect: 'lenient',
  });
}

interface SiteBase {
  url?: string;
  missing?: string[];
  problem?: string;
}

function siteBaseUrl(site: string, explicit: string, product: SiteProduct): SiteBase {
  if (explicit.trim() !== '') return { url: explicit.trim() };
  if (site.trim() === '') return { missing: [`ATLASSIAN_SITE_NAME (or ${product.settingsPrefix}_BASE_URL)`] };
  if (!SITE_NAME.test(site.trim())) {
    return {
      problem:
        `ATLASSIAN_SITE_NAME ${JSON.stringify(site)} is not an Atlassian site name: give only the part before .atlassian.net ` +
        `("acme" for https://acme.atlassian.net), or set ${product.settingsPrefix}_BASE_URL to the full URL.`,
    };
  }
  return { url: `https://${site.trim()}.atlassian.net` };
}
