import Type, { type TObject } from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { UpstreamClient, type UpstreamClientOptions } from '../../core/http/upstream-client.js';
import { credentialModeFrom, credentialModeSettings, identityFrom, identitySettings } from '../../core/http/vendor-settings.js';
import { atlassianGatewayBase } from '../../core/identity/atlassian-gateway.js';
import { AtlassianTrustSettings } from './author-trust.js';
import { deploymentSetting, resolveDeployment, type Deployment, type SiteApi } from './deployment.js';
import type { PassthroughBehaviour } from './passthrough.js';
import {
  apiPrefixesSetting,
  ATLASSIAN_HEADERS,
  atlassianTransportLimits,
  basicAuth,
  mapProductPath,
  parseApiPrefixes,
  SiteAccountSettings,
  SiteAccountSettingsSchema,
  type ProductPaths,
} from './product.js';

/** Jira or Confluence: a product served from the Atlassian site (`https://SITE.atlassian.net`). */
export interface SiteProduct {
  vendor: 'jira' | 'confluence';
  label: string;
  /** Prefix of the product's own settings: JIRA gives JIRA_BASE_URL, JIRA_API_PREFIXES, JIRA_CREDENTIAL_LABEL. */
  settingsPrefix: string;
  /** Where the product's API lives on Cloud, the default of `<PREFIX>_API_PREFIXES`. */
  cloudPrefixes: string;
  /** A Data Center context path, shown in the base URL setting's description. */
  contextPathExample: string;
  /** A path that works, shown in boundary errors. */
  examplePath: string;
}

/** The settings of a site product: the shared account, its base URL, its API prefixes, its identity. */
export function siteProductSettings(product: SiteProduct): TObject {
  const other = product.vendor === 'jira' ? 'Confluence' : 'Jira';
  return Type.Object({
    ...SiteAccountSettings,
    [`${product.settingsPrefix}_BASE_URL`]: Type.String({
      default: '',
      description: `${product.label} base URL; default https://\${ATLASSIAN_SITE_NAME}.atlassian.net. Set it for Data Center / Server (a path such as ${product.contextPathExample} is kept).`,
    }),
    [`${product.settingsPrefix}_API_PREFIXES`]: apiPrefixesSetting(
      product.cloudPrefixes,
      `${product.label} paths must start with (the boundary that keeps them off ${other} on a shared site)`,
    ),
    [`${product.settingsPrefix}_DEPLOYMENT`]: deploymentSetting(product.label),
    [`${product.settingsPrefix}_PERSONAL_TOKEN`]: secret(
      Type.String({
        default: '',
        description: `${product.label} personal access token (Data Center / Server), sent as a Bearer token; when set, ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN are not used.`,
      }),
    ),
    ...identitySettings(product.settingsPrefix, 'ATLASSIAN_API_TOKEN'),
    ...credentialModeSettings(product.settingsPrefix, product.label),
    ...AtlassianTrustSettings,
  });
}

/** Site products parse any body as JSON whatever its Content-Type, and authenticate with the account token. */
export function siteProductBehaviour(product: SiteProduct): PassthroughBehaviour {
  return {
    plainTextStaysText: false,
    credentialsHint: () =>
      `${product.label} authenticates with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (an API token of that account), or with ${product.settingsPrefix}_PERSONAL_TOKEN (a Data Center personal access token) when it is set.`,
  };
}

const SITE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * The base URL of a product whose site is not configured. It is never requested (a call fails on the missing
 * settings first) and the reserved `.invalid` name could not resolve if it were.
 */
const UNCONFIGURED_BASE_URL = 'https://unconfigured.invalid';

/** A site product's client, which also knows which API it speaks (Cloud or Data Center) and its web address. */
export class SiteClient extends UpstreamClient implements SiteApi {
  constructor(
    options: UpstreamClientOptions,
    readonly deployment: Deployment,
    readonly webBaseUrl: string,
  ) {
    super(options);
  }

  protected override withOptions(options: UpstreamClientOptions): UpstreamClient {
    return new SiteClient(options, this.deployment, this.webBaseUrl);
  }
}

/**
 * The client of a site product: Basic auth with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN, or a Bearer
 * personal access token when `<PRODUCT>_PERSONAL_TOKEN` is set (Data Center and Server); the base URL
 * `https://${ATLASSIAN_SITE_NAME}.atlassian.net` unless `<PRODUCT>_BASE_URL` overrides it; the product's path
 * boundary; Cloud or Data Center as `<PRODUCT>_DEPLOYMENT` says or the base URL implies. Missing settings do
 * not stop start-up: a call reports what to set, before any request.
 */
export function createSiteClient(settings: Settings, product: SiteProduct): SiteClient {
  const { ATLASSIAN_USER_EMAIL: email, ATLASSIAN_API_TOKEN: token, ATLASSIAN_SITE_NAME } = settings.of(SiteAccountSettingsSchema);
  // The product's own settings by key: their names are computed from the product's prefix (JIRA_BASE_URL,
  // CONFLUENCE_API_PREFIXES), and siteProductSettings declared them as strings.
  const key = (name: string): string => `${product.settingsPrefix}_${name}`;
  const personalToken = settings.get<string>(key('PERSONAL_TOKEN')).trim();
  const base = siteBaseUrl(ATLASSIAN_SITE_NAME, settings.get<string>(key('BASE_URL')), product);
  const account = personalToken !== '' ? [] : [...(email === '' ? ['ATLASSIAN_USER_EMAIL'] : []), ...(token === '' ? ['ATLASSIAN_API_TOKEN'] : [])];
  const missing = [...(base.missing ?? []), ...account];
  const problem =
    base.problem ??
    (missing.length === 0
      ? undefined
      : `${product.label} is not configured: set ${missing.join(', ')} (in the environment, ./.env, or the "${product.vendor}" section of ~/.mcp/configs.json). ` +
        `ATLASSIAN_API_TOKEN is an API token of the ATLASSIAN_USER_EMAIL account; on Data Center / Server, ${key('PERSONAL_TOKEN')} (a personal access token) replaces both.`);
  const credentials = personalToken !== '' ? { authorization: `Bearer ${personalToken}` } : basicAuth(email, token);
  const authHeaders = problem === undefined ? Object.freeze(credentials) : undefined;
  const prefixesKey = key('API_PREFIXES');
  const paths: ProductPaths = {
    label: product.label,
    settingKey: prefixesKey,
    prefixes: parseApiPrefixes(settings.get<string>(prefixesKey), prefixesKey),
    prependFirst: false,
    example: product.examplePath,
  };
  const baseUrl = base.url ?? UNCONFIGURED_BASE_URL;
  const identity = identityFrom(settings, product.settingsPrefix);
  // The label left at its default names the credential actually sent.
  if (personalToken !== '' && identity.credentialLabel === 'ATLASSIAN_API_TOKEN') identity.credentialLabel = key('PERSONAL_TOKEN');
  const options: UpstreamClientOptions = {
    vendor: product.vendor,
    label: product.label,
    baseUrl,
    baseUrlSetting: key('BASE_URL'),
    examplePath: product.examplePath,
    // Made once: the credentials are fixed for the life of the server, and every request sends them.
    auth: () => authHeaders,
    missingCredentials: problem ?? '',
    secretMaterial: () => (personalToken !== '' ? `bearer\0${personalToken}` : `${email}\0${token}`),
    ...identity,
    headers: ATLASSIAN_HEADERS,
    mapPath: (path) => mapProductPath(path, paths),
    ...atlassianTransportLimits(settings),
    expect: 'lenient',
  };
  const deployment = resolveDeployment(settings.get<string>(key('DEPLOYMENT')), baseUrl, key('DEPLOYMENT'));
  // A person's own account: Atlassian Cloud's 3LO link (Jira and Confluence together) through the API gateway,
  // by the site's cloud id; on Data Center their personal access token, at the product's own base URL.
  const gateway = settings.get<string>('ATLASSIAN_API_GATEWAY_URL');
  options.linking = {
    mode: credentialModeFrom(settings, product.settingsPrefix),
    vendor: deployment === 'cloud' ? 'atlassian' : product.vendor === 'jira' ? 'jira-datacenter' : 'confluence-datacenter',
    setting: key('CREDENTIALS'),
    auth: (linked) => ({ authorization: `Bearer ${linked}` }),
    ...(deployment === 'cloud' ? { baseUrl: (credential) => atlassianGatewayBase(product.vendor, credential.siteId ?? '', gateway) } : {}),
  };
  return new SiteClient(options, deployment, baseUrl.replace(/\/+$/, ''));
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
