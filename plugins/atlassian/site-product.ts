import Type, { type TObject } from 'typebox';
import { identitySettings } from '../../core/http/vendor-settings.js';
import type { PassthroughBehaviour } from './passthrough-call.js';
import { apiPrefixesSetting, SiteAccountSettings } from './settings.js';

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
    ...identitySettings(product.settingsPrefix, 'ATLASSIAN_API_TOKEN'),
  });
}

/** Site products parse any body as JSON whatever its Content-Type, and authenticate with the account token. */
export function siteProductBehaviour(product: SiteProduct): PassthroughBehaviour {
  return {
    plainTextStaysText: false,
    credentialsHint: () => `${product.label} authenticates with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (an API token of that account).`,
  };
}
