import { LinkError } from '../../../core/identity/link-error.js';
import type { SecretText } from '../../../core/identity/secret-text.js';
import type { NewLink } from '../vault-record.js';
import type { RedirectFlow } from './link-flow.js';
import { OAuth2CodeFlow, type OAuthClient } from './oauth2-client.js';
import { readAsOwner } from './vendor-read.js';

export interface AtlassianFlowOptions {
  client: Omit<OAuthClient, 'authentication'>;
  /** Space-separated; `offline_access` is always added (it is what gives a refresh token). */
  scopes: string;
  /** The site to act on when the person's grant covers several: its URL (https://acme.atlassian.net) or name (acme). */
  site?: string;
  /** https://auth.atlassian.com, or a test server. */
  authBaseUrl?: string;
  /** https://api.atlassian.com, or a test server. */
  apiBaseUrl?: string;
}

interface AccessibleResource {
  id: string;
  url: string;
  name: string;
  scopes?: string[];
}

/**
 * Atlassian Cloud's OAuth 2.0 (3LO) for Jira and Confluence together: the authorization code grant with
 * `offline_access` (audience api.atlassian.com, consent asked each time, as Atlassian documents), rotating
 * refresh tokens, and the site's cloud id resolved from accessible-resources: calls then go to the API
 * gateway, https://api.atlassian.com/ex/jira/{cloudId}/... (core/identity/atlassian-gateway.ts).
 */
export class AtlassianFlow implements RedirectFlow {
  readonly vendor = 'atlassian' as const;
  private readonly oauth: OAuth2CodeFlow;
  private readonly apiBaseUrl: string;

  constructor(private readonly options: AtlassianFlowOptions) {
    const auth = (options.authBaseUrl ?? 'https://auth.atlassian.com').replace(/\/+$/, '');
    this.apiBaseUrl = (options.apiBaseUrl ?? 'https://api.atlassian.com').replace(/\/+$/, '');
    this.oauth = new OAuth2CodeFlow(
      'atlassian',
      { issuer: auth, authorizationEndpoint: `${auth}/authorize`, tokenEndpoint: `${auth}/oauth/token` },
      { ...options.client, authentication: 'client_secret_post' },
    );
  }

  authorizationUrl(state: string, verifier: SecretText): Promise<string> {
    const scopes = new Set(this.options.scopes.split(/\s+/).filter(Boolean));
    scopes.add('offline_access');
    return this.oauth.authorizationUrl(state, verifier, [...scopes].join(' '), { audience: 'api.atlassian.com', prompt: 'consent', response_type: 'code' });
  }

  async exchange(code: string, state: string, verifier: SecretText): Promise<NewLink> {
    const granted = await this.oauth.exchange(code, state, verifier);
    const token = granted.accessToken;
    const sites = await readAsOwner<AccessibleResource[]>({ vendor: this.vendor, url: `${this.apiBaseUrl}/oauth/token/accessible-resources`, token });
    const site = this.chooseSite(Array.isArray(sites) ? sites : []);
    const me = await readAsOwner<{ account_id?: string; email?: string; nickname?: string; name?: string }>({
      vendor: this.vendor,
      url: `${this.apiBaseUrl}/me`,
      token,
    });
    if (typeof me.account_id !== 'string') throw new LinkError('vendor_unreachable', this.vendor);
    return {
      tokens: { accessToken: token, ...(granted.refreshToken ? { refreshToken: granted.refreshToken } : {}) },
      login: me.email ?? me.nickname ?? me.name ?? me.account_id,
      accountId: me.account_id,
      siteId: site.id,
      siteUrl: site.url,
      scopes: granted.scopes.length > 0 ? granted.scopes : (site.scopes ?? []),
      ...(granted.expiresAt === undefined ? {} : { expiresAt: granted.expiresAt }),
    };
  }

  readonly refresh = (refreshToken: SecretText, signal: AbortSignal) => this.oauth.refresh(refreshToken, signal);

  /** The configured site among those the grant reaches; without one configured, the only one. */
  private chooseSite(sites: AccessibleResource[]): AccessibleResource {
    const wanted = this.options.site?.trim();
    if (wanted) {
      const host = /^https?:\/\//.test(wanted) ? new URL(wanted).host : `${wanted}.atlassian.net`;
      const found = sites.find((s) => typeof s.url === 'string' && new URL(s.url).host === host);
      if (found) return found;
      throw new LinkError('site_not_granted', this.vendor, { settings: host });
    }
    if (sites.length === 1) return sites[0]!;
    throw new LinkError('not_configured', this.vendor, { settings: `the grant reaches ${sites.length} sites: set ATLASSIAN_SITE_NAME to the one to act on` });
  }
}
