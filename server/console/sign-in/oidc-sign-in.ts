import type { IncomingMessage } from 'node:http';
import * as oidc from 'openid-client';
import { NO_EGRESS_ALLOWANCE, type EgressAllowList } from '../../../core/http/egress-guard.js';
import { configuredUrlGuard, guardedFetch } from '../../../core/http/guarded-fetch.js';
import type { Logger } from '../../../core/logging/logger.js';
import type { AuthOutcome } from '../../auth/authenticator.js';
import { claim, groupsOf, OidcAuthenticator } from '../../auth/oidc-authenticator.js';
import { isLoopbackHost } from '../../http/origin-check.js';
import type { Recheck } from '../session-check.js';
import type { PendingLogin, SessionCredential } from '../sessions.js';

export interface OidcSignInOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  subjectClaim: string;
  groupsClaim: string;
  clockSkewSeconds: number;
  maxLifetimeSeconds: number;
  /** MCP_EGRESS_ALLOW, parsed: what the provider's endpoints may be at besides public addresses. */
  egressAllow?: EgressAllowList;
}

const TIMEOUT_SECONDS = 10;

/**
 * Approvers sign in at the same OpenID provider that issues the agents' tokens: the authorization code flow
 * with PKCE (S256), a state bound to the browser and a nonce bound to the ID token, by openid-client. The ID
 * token it returns is then checked once more against the provider's keys by the server's own OIDC
 * authenticator (audience: the console's client), so an approver gets the same subject and groups, from the
 * same claims, as the MCP endpoint would give them.
 */
export class OidcSignIn {
  private configuration: Promise<{ config: oidc.Configuration; verifier: OidcAuthenticator }> | undefined;

  constructor(
    private readonly options: OidcSignInOptions,
    private readonly logger: Logger,
  ) {}

  /** Where to send the browser, and what the callback must find again (kept under `state`). */
  async begin(redirectUri: string): Promise<{ url: string; state: string; login: PendingLogin }> {
    const { config } = await this.discovered();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const login: PendingLogin = { codeVerifier, nonce: oidc.randomNonce() };
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.options.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce: login.nonce,
    });
    return { url: url.href, state, login };
  }

  /** The origin of the provider's authorization endpoint (the issuer's while it cannot be discovered). */
  async authorizationOrigin(): Promise<string> {
    try {
      const endpoint = (await this.discovered()).config.serverMetadata().authorization_endpoint;
      if (endpoint !== undefined) return new URL(endpoint).origin;
    } catch {
      // shown when the sign-in is attempted
    }
    return new URL(this.options.issuer).origin;
  }

  /**
   * Redeems the code at the token endpoint (with the PKCE verifier) and names the principal of the ID token,
   * with what the session re-checks later: the subject, and the access token until it expires.
   */
  async finish(callbackUrl: URL, state: string, login: PendingLogin): Promise<{ outcome: AuthOutcome; credential?: SessionCredential }> {
    const { config, verifier } = await this.discovered();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      // The provider's own words (access_denied, invalid_grant...), never a token.
      const { error: code = (error as { code?: string }).code, error_description: description } = error as { error?: string; error_description?: string };
      this.logger.warn({ code, description, err: (error as Error).message }, 'console sign-in failed at the identity provider');
      return { outcome: { failure: `the identity provider did not complete the sign-in (${code ?? (error as Error).message}).` } };
    }
    const idToken = tokens.id_token;
    const claims = tokens.claims();
    if (idToken === undefined || claims === undefined) return { outcome: { failure: 'the identity provider returned no ID token.' } };
    const outcome = await verifier.authenticate({ headers: { authorization: `Bearer ${idToken}` } } as IncomingMessage);
    // Until the access token expires; without one, until the ID token does (the groups are then not re-read).
    const expiresIn = tokens.expiresIn();
    const expiresAt = tokens.access_token !== '' && expiresIn !== undefined ? Date.now() + expiresIn * 1000 : claims.exp * 1000;
    return { outcome, credential: { kind: 'oidc', sub: claims.sub, accessToken: tokens.access_token || undefined, expiresAt } };
  }

  /**
   * Who a session's access token names now, by the provider's userinfo endpoint: the groups from
   * MCP_OIDC_GROUPS_CLAIM of its answer. An expired token, one the provider refuses (revoked, the account
   * disabled), or a provider that cannot be reached ends the session. A provider without a userinfo endpoint
   * cannot tell: its sessions last until the token expires, with the groups of the sign-in.
   */
  async recheck(
    accessToken: string | undefined,
    credential: { sub: string; expiresAt?: number },
    subject: string,
    groups: readonly string[],
  ): Promise<Recheck> {
    if (credential.expiresAt !== undefined && credential.expiresAt <= Date.now()) return { ended: 'its access token expired' };
    const { config } = await this.discovered();
    if (accessToken === undefined || config.serverMetadata().userinfo_endpoint === undefined) return { subject, groups };
    let info: Awaited<ReturnType<typeof oidc.fetchUserInfo>>;
    try {
      info = await oidc.fetchUserInfo(config, accessToken, credential.sub);
    } catch (error) {
      return { ended: `the identity provider no longer accepts its access token (${(error as { code?: string }).code ?? (error as Error).message})` };
    }
    const named = claim(info, this.options.groupsClaim);
    // Providers leave out an empty groups claim; one that never sends it there ends sessions with groups, saying so.
    if (named === undefined && groups.length > 0)
      return {
        ended: `the provider's userinfo answer names no groups: they were taken away, or the provider does not send "${this.options.groupsClaim}" (MCP_OIDC_GROUPS_CLAIM) there`,
      };
    return { subject, groups: groupsOf(named) };
  }

  /** Discovery happens at the first sign-in and is retried after a failure, so an unreachable provider does not stop the MCP server. */
  private discovered(): Promise<{ config: oidc.Configuration; verifier: OidcAuthenticator }> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<{ config: oidc.Configuration; verifier: OidcAuthenticator }> {
    const { issuer, clientId, clientSecret } = this.options;
    const url = new URL(issuer);
    const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
    const auth = clientSecret === '' ? oidc.None() : oidc.ClientSecretBasic(clientSecret);
    // Discovery, the token and userinfo endpoints it names, and the keys: each through the egress guard.
    const egressAllow = this.options.egressAllow ?? NO_EGRESS_ALLOWANCE;
    const fetchGuarded = guardedFetch(configuredUrlGuard(url, egressAllow, 'oidc-provider'));
    const config = await oidc.discovery(url, clientId, clientSecret === '' ? undefined : { client_secret: clientSecret }, auth, {
      timeout: TIMEOUT_SECONDS,
      [oidc.customFetch]: fetchGuarded,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    config[oidc.customFetch] = fetchGuarded;
    const jwks = config.serverMetadata().jwks_uri;
    if (jwks === undefined) throw new Error(`the identity provider at ${issuer} publishes no jwks_uri`);
    const verifier = new OidcAuthenticator({
      egressAllow,
      issuer,
      audience: clientId,
      jwksUrl: new URL(jwks),
      clockSkewSeconds: this.options.clockSkewSeconds,
      maxLifetimeSeconds: this.options.maxLifetimeSeconds,
      subjectClaim: this.options.subjectClaim,
      groupsClaim: this.options.groupsClaim,
    });
    this.logger.info({ issuer, clientId }, 'console sign-in through the identity provider ready');
    return { config, verifier };
  }
}
