import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { MockUpstream } from '../../core/testing/mock-upstream.js';

export interface SignOptions {
  /** Seconds from now; negative for an expired token; null for a token without `exp`. */
  expiresIn?: number | null;
  /** Seconds from now of `iat`; null for a token without it. */
  issuedAt?: number | null;
  notBefore?: number;
  issuer?: string;
  audience?: string | string[];
  /** Sign with another key than the published one (a forged token). */
  key?: CryptoKey;
  kid?: string;
}

export const AUDIENCE = 'mcp-devtools';

/**
 * An OpenID provider on loopback, Keycloak-shaped: discovery document and JWKS served by a real HTTP
 * server, an RS256 key pair generated for the test, and tokens signed with it.
 */
export class FakeIssuer {
  private constructor(
    private readonly mock: MockUpstream,
    readonly issuer: string,
    private readonly privateKey: CryptoKey,
  ) {}

  static async start(): Promise<FakeIssuer> {
    const mock = await MockUpstream.start();
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    const issuer = `${mock.url}/realms/acme`;
    mock.on('GET', '/realms/acme/.well-known/openid-configuration', { body: { issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs`, id_token_signing_alg_values_supported: ['RS256'] } });
    mock.on('GET', '/realms/acme/protocol/openid-connect/certs', { body: { keys: [jwk] } });
    return new FakeIssuer(mock, issuer, privateKey);
  }

  /** How many times the JWKS was fetched. */
  get jwksFetches(): number {
    return this.mock.requests.filter((r) => r.path.endsWith('/certs')).length;
  }

  async sign(claims: JWTPayload, options: SignOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'key-1', typ: 'JWT' })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? AUDIENCE);
    if (options.issuedAt !== null) jwt.setIssuedAt(now + (options.issuedAt ?? 0));
    if (options.expiresIn !== null) jwt.setExpirationTime(now + (options.expiresIn ?? 300));
    if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
    return jwt.sign(options.key ?? this.privateKey);
  }

  /** Takes the provider down: key fetches fail from now on. */
  async close(): Promise<void> {
    await this.mock.close();
  }
}

/** A key pair nobody published. */
export async function foreignKey(): Promise<CryptoKey> {
  return (await generateKeyPair('RS256')).privateKey;
}
