import type { LinkVendor } from '../../../core/identity/acting-identity.js';
import { LinkError } from '../../../core/identity/link-error.js';
import { SecretText } from '../../../core/identity/secret-text.js';
import type { RenewedTokens } from '../vault-record.js';
import { renewalRateLimit, type RenewalFetch } from './renewal-limits.js';

/** An authorization server known by its endpoints (no discovery: Atlassian and Bitbucket publish none). */
export interface AuthorizationServer {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: SecretText;
  /** How the client authenticates at the token endpoint: Atlassian takes the secret in the body, Bitbucket in Basic. */
  authentication: 'client_secret_post' | 'client_secret_basic';
  /** The callback registered with the vendor (`<public URL>/identity/callback/<vendor>`); empty when unknown (renewal needs none). */
  redirectUri: string;
  /** What renewals are sent with: the rate-limit governor's fetch (renewal-limits.ts), unless it is off. */
  renewalFetch?: RenewalFetch;
}

/** What the token endpoint gave, with expiry as epoch ms. */
export interface GrantedTokens extends RenewedTokens {
  readonly scopes: readonly string[];
}

const TIMEOUT_MS = 30_000;

/**
 * The authorization code grant with PKCE and the refresh grant, for a plain OAuth 2.0 server, through
 * openid-client (on oauth4webapi). Every failure becomes a LinkError that names the vendor and, at most, the
 * server's OAuth error code: neither the library's errors nor the server's descriptions (which may echo what
 * was sent) are passed on. Plain http is allowed only to loopback addresses (a local test server).
 */
export class OAuth2CodeFlow {
  constructor(
    readonly vendor: LinkVendor,
    private readonly server: AuthorizationServer,
    private readonly client: OAuthClient,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The URL the person's browser goes to; `extra` carries vendor parameters (Atlassian's audience and prompt). */
  async authorizationUrl(state: string, verifier: SecretText, scope: string, extra: Record<string, string> = {}): Promise<string> {
    if (this.client.redirectUri === '')
      throw new LinkError('not_configured', this.vendor, { settings: "the server's public URL is not set, so no callback can reach it" });
    const oidc = await import('openid-client');
    const config = await this.configuration();
    return oidc
      .buildAuthorizationUrl(config, {
        ...extra,
        redirect_uri: this.client.redirectUri,
        scope,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier.reveal()),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  async exchange(code: string, state: string, verifier: SecretText): Promise<GrantedTokens> {
    const oidc = await import('openid-client');
    const config = await this.configuration();
    const callback = new URL(this.client.redirectUri || 'http://localhost/identity/callback');
    callback.search = new URLSearchParams({ code, state }).toString();
    try {
      const answer = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier.reveal(), expectedState: state });
      return this.tokensOf(answer);
    } catch (error) {
      throw this.failure(error, 'code_refused');
    }
  }

  async refresh(refreshToken: SecretText, signal: AbortSignal): Promise<GrantedTokens> {
    const oidc = await import('openid-client');
    const config = await this.configuration(signal, this.client.renewalFetch);
    try {
      return this.tokensOf(await oidc.refreshTokenGrant(config, refreshToken.reveal()));
    } catch (error) {
      // The token endpoint's rate limit, said with when to retry (the refresh token was not spent).
      throw renewalRateLimit(error) ?? this.failure(error, 'refresh_refused');
    }
  }

  private async configuration(signal?: AbortSignal, send: RenewalFetch = fetch) {
    const oidc = await import('openid-client');
    const auth = this.client.authentication === 'client_secret_post' ? oidc.ClientSecretPost : oidc.ClientSecretBasic;
    const config = new oidc.Configuration(
      { issuer: this.server.issuer, authorization_endpoint: this.server.authorizationEndpoint, token_endpoint: this.server.tokenEndpoint },
      this.client.clientId,
      this.client.redirectUri === '' ? {} : { redirect_uris: [this.client.redirectUri] },
      auth(this.client.clientSecret.reveal()),
    );
    config[oidc.customFetch] = (url, options) =>
      send(url, {
        ...(options as RequestInit),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
      });
    if (isLoopback(this.server.tokenEndpoint)) oidc.allowInsecureRequests(config);
    return config;
  }

  private tokensOf(answer: { access_token: string; refresh_token?: string; expires_in?: number; scope?: string }): GrantedTokens {
    return {
      accessToken: new SecretText(answer.access_token),
      ...(answer.refresh_token ? { refreshToken: new SecretText(answer.refresh_token) } : {}),
      ...(typeof answer.expires_in === 'number' ? { expiresAt: this.clock() + answer.expires_in * 1000 } : {}),
      scopes: (answer.scope ?? '').split(/\s+/).filter(Boolean),
    };
  }

  /** The server's refusal (an OAuth error answer) is `refused`; anything else (network, 5xx, a bad body) is a failure to reach it. */
  private failure(error: unknown, refused: 'code_refused' | 'refresh_refused'): LinkError {
    const oauthError = (error as { error?: unknown }).error;
    const status = (error as { status?: unknown }).status;
    if (typeof oauthError === 'string' && typeof status === 'number' && status >= 400 && status < 500) {
      return new LinkError(refused, this.vendor, { vendorError: oauthError });
    }
    return new LinkError(refused === 'refresh_refused' ? 'refresh_failed' : 'vendor_unreachable', this.vendor);
  }
}

/** http: is accepted only for these: a test server on this machine, never a real vendor. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
