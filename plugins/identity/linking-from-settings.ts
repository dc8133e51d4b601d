import type { LinkVendor } from '../../core/identity/acting-identity.js';
import { SecretText } from '../../core/identity/secret-text.js';
import { AtlassianFlow } from './flows/atlassian-flow.js';
import { BitbucketFlow } from './flows/bitbucket-flow.js';
import { GithubDeviceFlow } from './flows/github-device-flow.js';
import { GithubFlow, type GithubAppOptions } from './flows/github-flow.js';
import type { RedirectFlow, TokenCheck } from './flows/link-flow.js';
import { PersonalTokenCheck } from './flows/personal-tokens.js';
import type { IdentitySettingValues } from './identity-settings.js';
import type { Refresher } from './token-renewal.js';
import type { RenewalFetch } from './flows/renewal-limits.js';

/** Where the vendors are, from the vendor plugins' own settings (GITHUB_API_URL, JIRA_BASE_URL...). */
export interface VendorLocations {
  /** The address browsers reach this server at (https://mcp.acme.com); empty: browser linking is not offered. */
  publicUrl: string;
  githubApiUrl?: string;
  /** Atlassian Cloud site to act on when a grant reaches several (ATLASSIAN_SITE_NAME). */
  atlassianSite?: string;
  /** Atlassian's API gateway (ATLASSIAN_API_GATEWAY_URL): accessible resources and /me are read there. */
  atlassianApiUrl?: string;
  /** Data Center base URLs: a product with one is linked by personal access token. */
  jiraDataCenterUrl?: string;
  confluenceDataCenterUrl?: string;
  bitbucketDataCenterUrl?: string;
  /** CircleCI (CIRCLECI_BASE_URL); always linked by personal API token. */
  circleciUrl?: string;
  /** The fetch a vendor's OAuth client renews tokens with (the rate-limit governor's, renewal-limits.ts); absent: plain. */
  renewals?: (vendor: LinkVendor, clientId: string) => RenewalFetch;
}

export interface IdentityFlows {
  redirectFlows: RedirectFlow[];
  tokenChecks: TokenCheck[];
  githubDevice?: GithubDeviceFlow;
}

/** The callback URL a vendor's app registers: `<public URL>/identity/callback/<vendor>`. */
export function callbackUrl(publicUrl: string, vendor: LinkVendor): string {
  return publicUrl === '' ? '' : `${publicUrl.replace(/\/+$/, '')}/identity/callback/${vendor}`;
}

/** The linking flows the settings configure: a vendor whose OAuth app is set, and every personal-token vendor located. */
export function identityFlows(values: IdentitySettingValues, at: VendorLocations): IdentityFlows {
  const flows: IdentityFlows = { redirectFlows: [], tokenChecks: [] };
  const secretOf = (value: string) => (value === '' ? undefined : new SecretText(value));
  if (values.GITHUB_OAUTH_CLIENT_ID !== '') {
    const app: GithubAppOptions = {
      clientType: values.GITHUB_OAUTH_CLIENT_TYPE,
      clientId: values.GITHUB_OAUTH_CLIENT_ID,
      scopes: values.GITHUB_OAUTH_SCOPES.split(/[\s,]+/).filter(Boolean),
      ...(secretOf(values.GITHUB_OAUTH_CLIENT_SECRET) ? { clientSecret: secretOf(values.GITHUB_OAUTH_CLIENT_SECRET) } : {}),
      ...(at.publicUrl ? { redirectUri: callbackUrl(at.publicUrl, 'github') } : {}),
      ...(at.githubApiUrl ? { apiUrl: at.githubApiUrl } : {}),
      ...(at.renewals ? { renewalFetch: at.renewals('github', values.GITHUB_OAUTH_CLIENT_ID) } : {}),
    };
    if (app.clientSecret !== undefined) flows.redirectFlows.push(new GithubFlow(app));
    flows.githubDevice = new GithubDeviceFlow(app);
  }
  if (values.ATLASSIAN_OAUTH_CLIENT_ID !== '' && values.ATLASSIAN_OAUTH_CLIENT_SECRET !== '') {
    flows.redirectFlows.push(
      new AtlassianFlow({
        client: {
          clientId: values.ATLASSIAN_OAUTH_CLIENT_ID,
          clientSecret: new SecretText(values.ATLASSIAN_OAUTH_CLIENT_SECRET),
          redirectUri: callbackUrl(at.publicUrl, 'atlassian'),
          ...(at.renewals ? { renewalFetch: at.renewals('atlassian', values.ATLASSIAN_OAUTH_CLIENT_ID) } : {}),
        },
        scopes: values.ATLASSIAN_OAUTH_SCOPES,
        authBaseUrl: values.ATLASSIAN_OAUTH_AUTH_URL,
        ...(at.atlassianApiUrl ? { apiBaseUrl: at.atlassianApiUrl } : {}),
        ...(at.atlassianSite ? { site: at.atlassianSite } : {}),
      }),
    );
  }
  if (values.BITBUCKET_OAUTH_CLIENT_ID !== '' && values.BITBUCKET_OAUTH_CLIENT_SECRET !== '') {
    flows.redirectFlows.push(
      new BitbucketFlow({
        client: {
          clientId: values.BITBUCKET_OAUTH_CLIENT_ID,
          clientSecret: new SecretText(values.BITBUCKET_OAUTH_CLIENT_SECRET),
          redirectUri: callbackUrl(at.publicUrl, 'bitbucket'),
          ...(at.renewals ? { renewalFetch: at.renewals('bitbucket', values.BITBUCKET_OAUTH_CLIENT_ID) } : {}),
        },
      }),
    );
  }
  if (at.jiraDataCenterUrl) flows.tokenChecks.push(new PersonalTokenCheck('jira-datacenter', at.jiraDataCenterUrl));
  if (at.confluenceDataCenterUrl) flows.tokenChecks.push(new PersonalTokenCheck('confluence-datacenter', at.confluenceDataCenterUrl));
  if (at.bitbucketDataCenterUrl) flows.tokenChecks.push(new PersonalTokenCheck('bitbucket-datacenter', at.bitbucketDataCenterUrl));
  flows.tokenChecks.push(new PersonalTokenCheck('circleci', at.circleciUrl ?? 'https://circleci.com'));
  return flows;
}

/** What the vault renews tokens with: each redirect flow that has a refresh grant. */
export function refreshersOf(flows: IdentityFlows): Partial<Record<LinkVendor, Refresher>> {
  return Object.fromEntries(flows.redirectFlows.filter((f) => f.refresh !== undefined).map((f) => [f.vendor, f.refresh!]));
}
