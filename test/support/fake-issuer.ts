import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { MockUpstream } from '../../server/testing/mock-upstream.js';

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

/** The machine client the issuer knows (client_credentials grant, client_secret_basic). */
export const CLIENT = { id: 'ci-agent', secret: 'ci-agent-secret-0f3a' };

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
    mock.on('GET', '/realms/acme/.well-known/openid-configuration', {
      body: {
        issuer,
        jwks_uri: `${issuer}/protocol/openid-connect/certs`,
        authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
        token_endpoint: `${issuer}/protocol/openid-connect/token`,
        grant_types_supported: ['authorization_code', 'client_credentials'],
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
      },
    });
    mock.on('GET', '/realms/acme/protocol/openid-connect/certs', { body: { keys: [jwk] } });
    const idp = new FakeIssuer(mock, issuer, privateKey);
    mock.on('POST', '/realms/acme/protocol/openid-connect/token', (request) => idp.token(request.headers.authorization, new URLSearchParams(request.body)));
    return idp;
  }

  /** The token requests the issuer answered, as sent (form parameters). */
  get tokenRequests(): URLSearchParams[] {
    return this.mock.requests.filter((r) => r.path.endsWith('/token')).map((r) => new URLSearchParams(r.body));
  }

  /**
   * The token endpoint, for the client_credentials grant: the access token is a JWT for the resource the client
   * asked for (RFC 8707 `resource`), as Keycloak and others issue them when resource indicators are enabled.
   */
  private async token(authorization: string | undefined, form: URLSearchParams): Promise<{ status: number; body: unknown }> {
    const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
    if (authorization !== basic) return { status: 401, body: { error: 'invalid_client' } };
    if (form.get('grant_type') !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type' } };
    const resource = form.get('resource');
    const accessToken = await this.sign({ sub: CLIENT.id, groups: ['agents'] }, resource === null ? {} : { audience: resource });
    return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 300 } };
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
