import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { MockUpstream } from '../../server/testing/mock-upstream.js';

/** The console's client at the provider. */
export const CONSOLE_CLIENT = { id: 'mcp-console', secret: 'mcp-console-secret-5d21a9' };

interface IssuedCode {
  subject: string;
  groups: string[];
  nonce: string;
  codeChallenge: string;
}

/**
 * An OpenID provider on loopback for the authorization code flow, speaking the wire format (discovery, JWKS,
 * /token with client_secret_basic and PKCE S256). The test plays the browser's part at the provider: it issues
 * a code for the authorization request the console sent (`issueCode`). The token endpoint redeems a code as
 * often as it is presented while it is valid, as a provider does for requests that arrive together before
 * the first redemption is recorded: whatever keeps a sign-in single-use must be the console's own state.
 */
export class CodeFlowIssuer {
  private readonly codes = new Map<string, IssuedCode>();

  private constructor(
    private readonly mock: MockUpstream,
    readonly issuer: string,
    private readonly key: CryptoKey,
  ) {}

  static async start(): Promise<CodeFlowIssuer> {
    const mock = await MockUpstream.start();
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'code-flow-1', alg: 'RS256', use: 'sig' };
    const issuer = `${mock.url}/realms/acme`;
    mock.on('GET', '/realms/acme/.well-known/openid-configuration', {
      body: {
        issuer,
        authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
        token_endpoint: `${issuer}/protocol/openid-connect/token`,
        jwks_uri: `${issuer}/protocol/openid-connect/certs`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
      },
    });
    mock.on('GET', '/realms/acme/protocol/openid-connect/certs', { body: { keys: [jwk] } });
    const idp = new CodeFlowIssuer(mock, issuer, privateKey);
    mock.on('POST', '/realms/acme/protocol/openid-connect/token', (request) => idp.token(request.headers.authorization, new URLSearchParams(request.body)));
    return idp;
  }

  /** A code for the authorization request at `authorizeUrl` (its nonce and PKCE challenge), signing in `subject`. */
  issueCode(authorizeUrl: string, subject: string, groups: string[]): string {
    const query = new URL(authorizeUrl).searchParams;
    const code = `code-${createHash('sha256').update(authorizeUrl).digest('hex').slice(0, 16)}`;
    this.codes.set(code, { subject, groups, nonce: query.get('nonce')!, codeChallenge: query.get('code_challenge')! });
    return code;
  }

  /** The token requests the provider answered. */
  get tokenRequests(): number {
    return this.mock.requests.filter((r) => r.path.endsWith('/token')).length;
  }

  close(): Promise<void> {
    return this.mock.close();
  }

  private async token(authorization: string | undefined, form: URLSearchParams): Promise<{ status: number; body: unknown }> {
    if (!sameClient(authorization)) return { status: 401, body: { error: 'invalid_client' } };
    if (form.get('grant_type') !== 'authorization_code') return { status: 400, body: { error: 'unsupported_grant_type' } };
    const issued = this.codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    if (issued === undefined || createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Code not valid' } };
    }
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({ groups: issued.groups, nonce: issued.nonce })
      .setProtectedHeader({ alg: 'RS256', kid: 'code-flow-1', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(CONSOLE_CLIENT.id)
      .setSubject(issued.subject)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(this.key);
    return { status: 200, body: { access_token: `at-${issued.subject}-${now}`, token_type: 'Bearer', expires_in: 300, id_token: idToken } };
  }
}

/** client_secret_basic: id and secret each form-urlencoded (RFC 6749 2.3.1), then joined and base64-encoded. */
function sameClient(authorization: string | undefined): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '');
  if (match === null) return false;
  const [id, secret] = Buffer.from(match[1]!, 'base64')
    .toString('utf8')
    .split(':')
    .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
  return id === CONSOLE_CLIENT.id && secret === CONSOLE_CLIENT.secret;
}
