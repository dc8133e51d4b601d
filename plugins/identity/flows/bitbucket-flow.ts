import { LinkError } from '../../../core/identity/link-error.js';
import type { SecretText } from '../../../core/identity/secret-text.js';
import type { NewLink } from '../vault-record.js';
import type { RedirectFlow } from './link-flow.js';
import { OAuth2CodeFlow, type OAuthClient } from './oauth2-client.js';
import { readAsOwner } from './vendor-read.js';

export interface BitbucketFlowOptions {
  client: Omit<OAuthClient, 'authentication'>;
  /** https://bitbucket.org, or a test server. */
  authBaseUrl?: string;
  /** https://api.bitbucket.org, or a test server. */
  apiBaseUrl?: string;
}

/**
 * Bitbucket Cloud's OAuth 2.0 authorization code grant (an OAuth consumer of the workspace; its scopes are
 * chosen on the consumer, not in the request) with refresh: access tokens last two hours. Bitbucket offers no
 * revocation endpoint: disconnecting forgets the tokens, and the person revokes the consumer in their settings.
 */
export class BitbucketFlow implements RedirectFlow {
  readonly vendor = 'bitbucket' as const;
  private readonly oauth: OAuth2CodeFlow;
  private readonly apiBaseUrl: string;

  constructor(options: BitbucketFlowOptions) {
    const auth = (options.authBaseUrl ?? 'https://bitbucket.org').replace(/\/+$/, '');
    this.apiBaseUrl = (options.apiBaseUrl ?? 'https://api.bitbucket.org').replace(/\/+$/, '');
    this.oauth = new OAuth2CodeFlow(
      'bitbucket',
      { issuer: auth, authorizationEndpoint: `${auth}/site/oauth2/authorize`, tokenEndpoint: `${auth}/site/oauth2/access_token` },
      { ...options.client, authentication: 'client_secret_basic' },
    );
  }

  authorizationUrl(state: string, verifier: SecretText): Promise<string> {
    return this.oauth.authorizationUrl(state, verifier, 'account', { response_type: 'code' });
  }

  async exchange(code: string, state: string, verifier: SecretText): Promise<NewLink> {
    const granted = await this.oauth.exchange(code, state, verifier);
    const user = await readAsOwner<{ account_id?: string; uuid?: string; username?: string; nickname?: string; display_name?: string }>({
      vendor: this.vendor,
      url: `${this.apiBaseUrl}/2.0/user`,
      token: granted.accessToken,
    });
    const login = user.username ?? user.nickname ?? user.display_name;
    if (typeof login !== 'string') throw new LinkError('vendor_unreachable', this.vendor);
    return {
      tokens: { accessToken: granted.accessToken, ...(granted.refreshToken ? { refreshToken: granted.refreshToken } : {}) },
      login,
      ...(typeof user.account_id === 'string' ? { accountId: user.account_id } : typeof user.uuid === 'string' ? { accountId: user.uuid } : {}),
      scopes: [...granted.scopes],
      ...(granted.expiresAt === undefined ? {} : { expiresAt: granted.expiresAt }),
    };
  }

  readonly refresh = (refreshToken: SecretText, signal: AbortSignal) => this.oauth.refresh(refreshToken, signal);
}
