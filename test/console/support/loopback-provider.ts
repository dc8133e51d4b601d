import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The audience of the agents' access tokens (MCP_OIDC_AUDIENCE). */
export const API_AUDIENCE = 'mcp-devtools';

/**
 * A real OpenID provider on loopback (panva's oidc-provider): discovery, JWKS, /auth with a login page a
 * browser fills in (any login, any password; the account's groups come from `accounts`), /token with PKCE
 * verification and client authentication. Its issuer is `http://localhost:PORT` while the console runs on
 * 127.0.0.1, so the provider's redirect back is a cross-site navigation, as it is in production.
 * Agents' access tokens are signed with the same published key (`accessToken`).
 */
export class LoopbackProvider {
  /** Every /auth request's query, as the browser sent it. */
  readonly authorizeRequests: URLSearchParams[] = [];
  /** Every /token request's form fields (secrets removed). */
  readonly tokenRequests: URLSearchParams[] = [];

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly key: CryptoKey,
  ) {}

  static async start(client: ProviderClient, accounts: Record<string, readonly string[]>): Promise<LoopbackProvider> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'loopback-1', alg: 'RS256', use: 'sig' };
    void publicKey;
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
    const holder = new LoopbackProvider(server, issuer, privateKey);
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: [client.redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ['loopback-provider-cookie-key'] },
      claims: { openid: ['sub'], groups: ['groups'] },
      // The console reads the groups from the ID token, as Keycloak or Okta put them there when configured to.
      conformIdTokenClaims: false,
      pkce: { methods: ['S256'], required: () => true },
      ttl: { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
      features: { devInteractions: { enabled: true } },
      findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, groups: [...(accounts[id] ?? [])] }) }),
      // A first-party client: no consent page after the login.
      loadExistingGrant: async (ctx: { oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider } }) => {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope('openid groups');
        await grant.save();
        return grant;
      },
    } as ConstructorParameters<typeof Provider>[1]);
    // What the endpoints were sent, as the provider parsed it.
    provider.use(async (ctx, next) => {
      await next();
      const params = (ctx as { oidc?: { params?: Record<string, unknown> } }).oidc?.params ?? {};
      const fields = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string'));
      if (ctx.path === '/auth') holder.authorizeRequests.push(fields);
      if (ctx.path === '/token') holder.tokenRequests.push(fields);
    });
    server.on('request', provider.callback());
    return holder;
  }

  /** An access token for an agent, as the provider would issue it for the MCP server's audience. */
  accessToken(subject: string, groups: readonly string[]): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ groups: [...groups] })
      .setProtectedHeader({ alg: 'RS256', kid: 'loopback-1', typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(API_AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(this.key);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
