import type { IncomingMessage } from 'node:http';
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import { StartupError } from '../../core/errors/tool-error.js';
import { egressRefusalIn, NO_EGRESS_ALLOWANCE, parseEgressAllow, type EgressAllowList } from '../../core/http/egress-guard.js';
import { configuredUrlGuard, egressRefusalNow, guardedFetch } from '../../core/http/guarded-fetch.js';
import type { Logger } from '../../core/logging/logger.js';
import { isLoopbackHost } from '../http/origin-check.js';
import { bearerToken, type AuthOutcome, type Authenticator } from './authenticator.js';
import { AuthSettings } from './auth-settings.js';

export interface OidcOptions {
  issuer: string;
  /** Any of these (a token names the server's public endpoint, or the audience its issuer uses for it). */
  audience: string | string[];
  jwksUrl: URL;
  clockSkewSeconds: number;
  /** A token valid for longer than this (exp - iat) is refused: a stolen one must not work for ever. */
  maxLifetimeSeconds: number;
  subjectClaim: string;
  groupsClaim: string;
  /** MCP_EGRESS_ALLOW, parsed: the keys are fetched through the egress guard (a private address only when it names it). */
  egressAllow?: EgressAllowList;
}

/** Failures of fetching the issuer's keys: the token could not be checked, which is not the caller's fault. */
const KEY_FETCH_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JOSE_GENERIC', 'ERR_JWKS_INVALID']);
const DISCOVERY_TIMEOUT_MS = 5000;

/**
 * `MCP_AUTH_MODE=oidc`: JWT bearer tokens signed by the issuer's keys (JWKS, fetched and cached by jose,
 * refetched when an unknown key id appears), with issuer, audience and time checks within the clock skew; a
 * token must expire (`exp`), within MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS of when it was issued.
 * The subject and groups come from configurable claims, so Keycloak's `realm_access.roles` works as well
 * as Okta's `groups`.
 */
export class OidcAuthenticator implements Authenticator {
  readonly mode = 'oidc';
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly options: OidcOptions) {
    // The keys' URL is the provider's word (its discovery document): fetched through the egress guard.
    const guard = configuredUrlGuard(options.jwksUrl, options.egressAllow ?? NO_EGRESS_ALLOWANCE, 'oidc-keys');
    this.keys = createRemoteJWKSet(options.jwksUrl, {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
      [customFetch]: guardedFetch(guard),
    });
  }

  /**
   * Reads the settings and, without MCP_OIDC_JWKS_URL, discovers the JWKS URL from the issuer. Tokens must name
   * as audience `resource`, the public endpoint (MCP_PUBLIC_URL; RFC 8707 resource indicators), or MCP_OIDC_AUDIENCE.
   */
  static async fromSettings(settings: Settings, logger: Logger, resource?: string): Promise<OidcAuthenticator> {
    const oidc = settings.of(AuthSettings);
    const issuer = oidc.MCP_OIDC_ISSUER;
    const audience = [...new Set([oidc.MCP_OIDC_AUDIENCE, resource ?? ''])].filter((a) => a !== '');
    if (issuer === '' || audience.length === 0)
      throw new StartupError(
        "MCP_AUTH_MODE=oidc needs MCP_OIDC_ISSUER (the tokens' iss) and MCP_OIDC_AUDIENCE (their aud) or MCP_PUBLIC_URL (the resource they are issued for).",
      );
    requireSecureUrl('MCP_OIDC_ISSUER', issuer);
    const egressAllow = parseEgressAllow(settings.of(CoreSettings).MCP_EGRESS_ALLOW);
    const given = oidc.MCP_OIDC_JWKS_URL;
    const jwksUrl = given !== '' ? requireSecureUrl('MCP_OIDC_JWKS_URL', given) : await discoverJwksUrl(issuer, egressAllow);
    await refuseKeysUrl(given !== '' ? 'MCP_OIDC_JWKS_URL' : 'jwks_uri (discovered)', jwksUrl, egressAllow);
    logger.info({ issuer, audience, jwks: jwksUrl.href }, 'OIDC bearer tokens accepted');
    return new OidcAuthenticator({
      egressAllow,
      issuer,
      audience,
      jwksUrl,
      clockSkewSeconds: oidc.MCP_OIDC_CLOCK_SKEW_SECONDS,
      maxLifetimeSeconds: oidc.MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS,
      subjectClaim: oidc.MCP_OIDC_SUBJECT_CLAIM,
      groupsClaim: oidc.MCP_OIDC_GROUPS_CLAIM,
    });
  }

  async authenticate(request: IncomingMessage): Promise<AuthOutcome> {
    const bearer = bearerToken(request);
    if (!('token' in bearer)) return bearer;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(bearer.token, this.keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockSkewSeconds,
        // Without exp a token never expires: refused, as is one that lives longer than the setting allows.
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      const code = (error as { code?: string }).code;
      const refused = egressRefusalIn(error);
      if (refused !== undefined) {
        return { failure: `the token cannot be checked: the issuer's keys at ${this.options.jwksUrl.href} are not fetched: ${refused.message}.`, status: 503 };
      }
      if (!(error instanceof errors.JOSEError) || (code !== undefined && KEY_FETCH_FAILURES.has(code))) {
        return {
          failure: `the token cannot be checked now: the issuer's keys at ${this.options.jwksUrl.href} could not be fetched. Try again shortly.`,
          status: 503,
        };
      }
      return { failure: `the token is not valid: ${(error as Error).message}.` };
    }
    const lifetime = payload.exp! - (typeof payload.iat === 'number' ? payload.iat : Math.floor(Date.now() / 1000));
    if (lifetime > this.options.maxLifetimeSeconds + this.options.clockSkewSeconds) {
      return { failure: `the token is valid for ${lifetime} s, longer than MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS (${this.options.maxLifetimeSeconds}) allows.` };
    }
    const subject = claim(payload, this.options.subjectClaim);
    if (typeof subject !== 'string' || subject === '') return { failure: `the token has no "${this.options.subjectClaim}" claim to name its subject.` };
    return { principal: Object.freeze({ subject, groups: Object.freeze(groupsOf(claim(payload, this.options.groupsClaim))), via: 'oidc' }) };
  }
}

/** A claim at a dotted path (`realm_access.roles`); a claim whose own name has dots is found first. */
export function claim(payload: JWTPayload, path: string): unknown {
  if (Object.prototype.hasOwnProperty.call(payload, path)) return payload[path];
  let v: unknown = payload;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Groups from a claim: an array of names, or one string of names separated by spaces or commas. */
export function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string' && g !== '');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

/** Keys and issuer metadata are fetched over HTTPS only, but for a provider on this machine. */
function requireSecureUrl(setting: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StartupError(`${setting}=${JSON.stringify(value)} is not a URL.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new StartupError(
      `${setting}=${value} must be an https:// URL (plain http is accepted only on this machine): keys fetched in clear could be swapped.`,
    );
  }
  return url;
}

/**
 * The keys' URL held to the egress guard at start-up, on the addresses its host resolves to now: one at a
 * loopback, private or metadata address stops the start with a sentence unless MCP_EGRESS_ALLOW names it (each
 * connection is judged again when the keys are fetched, so a name that resolves elsewhere later gets nowhere).
 */
async function refuseKeysUrl(what: string, url: URL, allow: EgressAllowList): Promise<void> {
  const refused = await egressRefusalNow(configuredUrlGuard(url, allow, 'oidc-keys'), url);
  if (refused !== undefined) throw new StartupError(`${what} ${url.href} is not fetched: ${refused}.`);
}

async function discoverJwksUrl(issuer: string, allow: EgressAllowList): Promise<URL> {
  const where = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let metadata: { issuer?: unknown; jwks_uri?: unknown };
  const fetchGuarded = guardedFetch(configuredUrlGuard(new URL(where), allow, 'oidc-issuer'));
  try {
    const response = await fetchGuarded(where, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    metadata = (await response.json()) as typeof metadata;
  } catch (error) {
    const refused = egressRefusalIn(error);
    if (refused !== undefined) throw new StartupError(`OIDC discovery at ${where} is not fetched: ${refused.message}.`);
    throw new StartupError(`OIDC discovery at ${where} failed (${(error as Error).message}). Set MCP_OIDC_JWKS_URL, or check MCP_OIDC_ISSUER.`);
  }
  if (metadata.issuer !== issuer) {
    throw new StartupError(
      `OIDC discovery at ${where} names the issuer ${JSON.stringify(metadata.issuer)}, not MCP_OIDC_ISSUER=${issuer}; they must be identical.`,
    );
  }
  if (typeof metadata.jwks_uri !== 'string') throw new StartupError(`OIDC discovery at ${where} has no jwks_uri. Set MCP_OIDC_JWKS_URL.`);
  return requireSecureUrl('jwks_uri (discovered)', metadata.jwks_uri);
}
