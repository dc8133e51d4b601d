import type { OctokitResponse } from '@octokit/types';
import { LinkError } from '../../../core/identity/link-error.js';
import { SecretText } from '../../../core/identity/secret-text.js';
import type { LinkTokens, NewLink, RenewedTokens } from '../vault-record.js';
import type { RedirectFlow } from './link-flow.js';
import { renewalRateLimit, type RenewalFetch } from './renewal-limits.js';

export interface GithubAppOptions {
  /** An OAuth App, or a GitHub App acting for the person (user-to-server tokens, which expire and refresh). */
  clientType: 'oauth-app' | 'github-app';
  clientId: string;
  /** Absent for a device-flow-only client on a person's machine. */
  clientSecret?: SecretText;
  /** The callback registered with the app (`<public URL>/identity/callback/github`). */
  redirectUri?: string;
  /** OAuth App scopes (a GitHub App's permissions are set on the app instead). */
  scopes: readonly string[];
  /** The REST API: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server (its OAuth pages follow). */
  apiUrl?: string;
  /** What renewals are sent with: the rate-limit governor's fetch (renewal-limits.ts), unless it is off. */
  renewalFetch?: RenewalFetch;
}

type OctokitRequest = typeof import('@octokit/request').request;

/** @octokit/request with the API base URL: @octokit/oauth-methods derives the OAuth pages' address (github.com, HOST) from it. */
export async function githubRequest(apiUrl: string, extra: Record<string, unknown> = {}): Promise<OctokitRequest> {
  const { request } = await import('@octokit/request');
  return request.defaults({ baseUrl: apiUrl.replace(/\/+$/, ''), ...extra });
}

/**
 * GitHub's web flow, through @octokit/oauth-methods: the authorization URL (with a PKCE challenge), the code
 * exchange (with the verifier), the refresh of a GitHub App's expiring user tokens, and revocation of the
 * grant on disconnect (DELETE /applications/{client_id}/grant). The account is learnt from GET /user. A failing
 * request becomes a LinkError naming GitHub's error code only: octokit's errors carry the request, body included.
 */
export class GithubFlow implements RedirectFlow {
  readonly vendor = 'github' as const;
  private readonly apiUrl: string;

  constructor(private readonly app: GithubAppOptions) {
    this.apiUrl = (app.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  }

  async authorizationUrl(state: string, verifier: SecretText): Promise<string> {
    const { getWebFlowAuthorizationUrl } = await import('@octokit/oauth-methods');
    const { calculatePKCECodeChallenge } = await import('openid-client');
    const base = {
      clientId: this.app.clientId,
      state,
      allowSignup: false,
      request: await githubRequest(this.apiUrl),
      ...(this.app.redirectUri ? { redirectUrl: this.app.redirectUri } : {}),
    };
    const { url } =
      this.app.clientType === 'github-app'
        ? getWebFlowAuthorizationUrl({ ...base, clientType: 'github-app' })
        : getWebFlowAuthorizationUrl({ ...base, clientType: 'oauth-app', scopes: [...this.app.scopes] });
    const withPkce = new URL(url);
    withPkce.searchParams.set('code_challenge', await calculatePKCECodeChallenge(verifier.reveal()));
    withPkce.searchParams.set('code_challenge_method', 'S256');
    return withPkce.toString();
  }

  async exchange(code: string, _state: string, verifier: SecretText): Promise<NewLink> {
    const { exchangeWebFlowCode } = await import('@octokit/oauth-methods');
    const answer = await this.ask(
      async () =>
        exchangeWebFlowCode({
          clientType: this.app.clientType as 'oauth-app',
          clientId: this.app.clientId,
          clientSecret: this.secret().reveal(),
          code,
          ...(this.app.redirectUri ? { redirectUrl: this.app.redirectUri } : {}),
          // oauth-methods sends the parameters it knows; the verifier rides along as a default of this request.
          request: await githubRequest(this.apiUrl, { code_verifier: verifier.reveal() }),
        }),
      'code_refused',
    );
    return this.linkOf(answer.data as TokenAnswer);
  }

  /** Renews a GitHub App's user token; the refresh token rotates with each use. */
  readonly refresh = async (refreshToken: SecretText, signal: AbortSignal): Promise<RenewedTokens> => {
    const { refreshToken: renew } = await import('@octokit/oauth-methods');
    const answer = await this.ask(
      async () =>
        renew({
          clientType: 'github-app',
          clientId: this.app.clientId,
          clientSecret: this.secret().reveal(),
          refreshToken: refreshToken.reveal(),
          request: await githubRequest(this.apiUrl, { request: { signal, ...(this.app.renewalFetch ? { fetch: this.app.renewalFetch } : {}) } }),
        }),
      'refresh_refused',
    );
    return tokensOf(answer.data as TokenAnswer);
  };

  /** Revokes the person's whole grant to the app, so no token of it works any more. */
  async revoke(tokens: LinkTokens): Promise<void> {
    const { deleteAuthorization } = await import('@octokit/oauth-methods');
    await this.ask(
      async () =>
        deleteAuthorization({
          clientType: this.app.clientType as 'oauth-app',
          clientId: this.app.clientId,
          clientSecret: this.secret().reveal(),
          token: tokens.accessToken.reveal(),
          request: await githubRequest(this.apiUrl),
        }),
      'vendor_unreachable',
    );
  }

  /** The account the tokens belong to (GET /user), as a link to keep. */
  async linkOf(answer: TokenAnswer): Promise<NewLink> {
    const tokens = tokensOf(answer);
    const request = await githubRequest(this.apiUrl);
    const user = await this.ask(() => request('GET /user', { headers: { authorization: `token ${tokens.accessToken.reveal()}` } }), 'vendor_unreachable');
    const { login, id } = user.data as { login?: string; id?: number };
    if (typeof login !== 'string') throw new LinkError('vendor_unreachable', 'github');
    return {
      tokens: { accessToken: tokens.accessToken, ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}) },
      login,
      ...(typeof id === 'number' ? { accountId: String(id) } : {}),
      scopes: [...(tokens.scopes ?? [])],
      ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
      ...(tokens.refreshExpiresAt === undefined ? {} : { refreshExpiresAt: tokens.refreshExpiresAt }),
    };
  }

  private secret(): SecretText {
    if (this.app.clientSecret === undefined) throw new LinkError('not_configured', 'github', { settings: 'GITHUB_OAUTH_CLIENT_SECRET is not set' });
    return this.app.clientSecret;
  }

  /** Runs one octokit request; its errors (which hold the request body) never leave: a LinkError takes their place. */
  private async ask<T extends OctokitResponse<unknown>>(
    work: () => Promise<T>,
    refused: 'code_refused' | 'refresh_refused' | 'vendor_unreachable',
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // The token endpoint's rate limit (a renewal), said with when to retry; octokit keeps it as the cause.
      throw renewalRateLimit(error) ?? githubFailure(error, refused);
    }
  }
}

/** GitHub's token answer (form or JSON, octokit parses both). */
export interface TokenAnswer {
  access_token: string;
  scope?: string;
  refresh_token?: string;
  expires_in?: number;
  refresh_token_expires_in?: number;
}

export function tokensOf(answer: TokenAnswer, now = Date.now()): RenewedTokens {
  return {
    accessToken: new SecretText(answer.access_token),
    ...(answer.refresh_token ? { refreshToken: new SecretText(answer.refresh_token) } : {}),
    ...(typeof answer.expires_in === 'number' ? { expiresAt: now + answer.expires_in * 1000 } : {}),
    ...(typeof answer.refresh_token_expires_in === 'number' ? { refreshExpiresAt: now + answer.refresh_token_expires_in * 1000 } : {}),
    scopes: (answer.scope ?? '').split(/[\s,]+/).filter(Boolean),
  };
}

/** An OAuth error answer (GitHub answers 200 with `error`) or a 4xx is a refusal; the rest is GitHub not reachable. */
export function githubFailure(error: unknown, refused: 'code_refused' | 'refresh_refused' | 'vendor_unreachable' | 'authorization_pending'): LinkError {
  const status = (error as { status?: unknown }).status;
  const data = (error as { response?: { data?: { error?: unknown } } }).response?.data;
  const code = typeof data?.error === 'string' ? data.error : undefined;
  if (typeof status === 'number' && status >= 400 && status < 500) return new LinkError(refused, 'github', { vendorError: code ?? `HTTP_${status}` });
  return new LinkError(refused === 'refresh_refused' ? 'refresh_failed' : 'vendor_unreachable', 'github');
}
