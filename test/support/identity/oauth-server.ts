import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { leakAudit } from '../leak-audit/leak-audit.js';

export interface OAuthServerOptions {
  /** Where the vendor keeps its endpoints: Atlassian's /authorize and /oauth/token, Bitbucket's /site/oauth2/... */
  routes: { authorization: string; token: string };
  client: { id: string; secret: string; redirectUri: string; authentication: 'client_secret_post' | 'client_secret_basic' };
  /** Access token lifetime in seconds (short, so that tests see tokens expire). */
  accessTokenSeconds: number;
  /** The vendor's "who am I" reads, answered for a valid access token of `account`. */
  resources: Record<string, (account: string) => unknown>;
  /**
   * The vendor's API behind its gateway (Atlassian's `/ex/jira/{cloudId}/...`): requests under `prefix`, answered
   * for a valid access token of `account`, and recorded in `apiRequests`; 401 for any other token.
   */
  api?: { prefix: string; answer(account: string, request: { method: string; path: string; body: string }): { status: number; body: unknown } };
}

/** A request the vendor's API received with a valid token, and whose account it acted as. */
export interface ApiRequest {
  method: string;
  path: string;
  body: string;
  account: string;
  authorization: string;
}

/** One refresh grant the server answered: which refresh token was presented (its hash), and the status. */
export interface RefreshUse {
  token: string;
  status: number;
}

/**
 * A real OAuth 2.0 authorization server on loopback (panva's oidc-provider), standing in for Atlassian's and
 * Bitbucket's: authorization code with PKCE (required), client authentication as the vendor takes it, refresh
 * tokens that rotate on every use with reuse detection (a spent refresh token presented again is refused and
 * revokes the grant, as Atlassian's rotating tokens do), and short-lived access tokens. The vendor's resource
 * reads (accessible-resources, /me, /2.0/user) check the bearer token against the server itself. The test
 * plays the person's browser with `authorize`. Every token it issues becomes a leak-check canary.
 */
export class LoopbackOAuthServer {
  readonly refreshUses: RefreshUse[] = [];
  /** Every access and refresh token the server issued, to look for where they must not be. */
  readonly issued: string[] = [];
  readonly authorizeRequests: URLSearchParams[] = [];
  /** Every request to the API under `api.prefix`, valid token or not (`account` empty when refused). */
  readonly apiRequests: ApiRequest[] = [];
  private nextAccount = 'nobody';

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly provider: Provider,
    private readonly options: OAuthServerOptions,
  ) {}

  static async start(options: OAuthServerOptions): Promise<LoopbackOAuthServer> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://localhost:${(server.address() as AddressInfo).port}`;
    const { client } = options;
    const provider = new Provider(url, {
      clients: [
        {
          client_id: client.id,
          client_secret: client.secret,
          redirect_uris: [client.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: client.authentication,
        },
      ],
      routes: { authorization: options.routes.authorization, token: options.routes.token },
      jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'oauth-1', alg: 'RS256', use: 'sig' }] },
      cookies: { keys: ['loopback-oauth-cookie-key'] },
      scopes: ['offline_access', 'read:jira-work', 'write:jira-work', 'read:jira-user', 'read:confluence-content.all', 'read:me', 'account'],
      pkce: { methods: ['S256'], required: () => true },
      rotateRefreshToken: true,
      issueRefreshToken: async (_ctx: unknown, c: { grantTypeAllowed(type: string): boolean }) => c.grantTypeAllowed('refresh_token'),
      ttl: { AccessToken: options.accessTokenSeconds, AuthorizationCode: 60, RefreshToken: 3600, Grant: 3600, Interaction: 600, Session: 600 },
      features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      adapter: MemoryAdapter,
      findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    } as ConstructorParameters<typeof Provider>[1]);
    const holder = new LoopbackOAuthServer(server, url, provider, options);
    provider.use(async (ctx, next) => {
      await next();
      const params = (ctx as { oidc?: { params?: Record<string, unknown> } }).oidc?.params ?? {};
      if (ctx.path === options.routes.authorization) {
        holder.authorizeRequests.push(new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string')));
      }
      if (ctx.path !== options.routes.token) return;
      const body = ctx.body as { access_token?: string; refresh_token?: string } | undefined;
      const tokens = [body?.access_token, body?.refresh_token].filter((t): t is string => typeof t === 'string');
      leakAudit.addCanaries(tokens);
      holder.issued.push(...tokens);
      if (params.grant_type === 'refresh_token') holder.refreshUses.push({ token: hash(String(params.refresh_token)), status: ctx.status });
    });
    const callback = provider.callback();
    server.on('request', (req, res) => {
      const path = new URL(req.url ?? '/', url).pathname;
      if (path.startsWith('/interaction/')) void holder.interact(req, res);
      else if (path in options.resources) void holder.resource(req, res, path);
      else if (options.api !== undefined && path.startsWith(options.api.prefix)) void holder.apiRequest(req, res, path);
      else callback(req, res);
    });
    return holder;
  }

  /**
   * The person's part in the browser: follows the authorization URL through sign-in (as `account`) and
   * consent, with the cookies a browser would keep, to the redirect back; returns the callback URL the
   * vendor sent the browser to (holding `code` and `state`), which is never fetched.
   */
  async authorize(authorizationUrl: string, account: string): Promise<URL> {
    this.nextAccount = account;
    const cookies = new Map<string, string>();
    let next = authorizationUrl;
    for (let hop = 0; hop < 12; hop++) {
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const set of response.headers.getSetCookie()) {
        const pair = set.split(';')[0]!;
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      const location = response.headers.get('location');
      const text = await response.text();
      if (location === null) throw new Error(`The authorization stopped with HTTP ${response.status}: ${text.slice(0, 300)}`);
      const target = new URL(location, next);
      if (target.href.startsWith(this.options.client.redirectUri)) return target;
      next = target.href;
    }
    throw new Error('The authorization did not come back to the client');
  }

  /** Who a real browser signs in as at the next authorization (`authorize` sets it itself). */
  signInAs(account: string): void {
    this.nextAccount = account;
  }

  /** Whether the server would accept this access token now (issued by it, not expired, not revoked). */
  async accepts(token: string): Promise<boolean> {
    const found = await this.provider.AccessToken.find(token);
    return found !== undefined && !found.isExpired;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Signs the person in as the account the test chose, and grants what the client asked for. */
  private async interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const details = await this.provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await this.provider.interactionFinished(req, res, { login: { accountId: this.nextAccount } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = details.grantId
        ? (await this.provider.Grant.find(details.grantId))!
        : new this.provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope ?? ''));
      await this.provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  }

  private async apiRequest(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const authorization = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(authorization)?.[1];
    const found = token === undefined ? undefined : await this.provider.AccessToken.find(token);
    const account = found === undefined || found.isExpired ? '' : found.accountId;
    this.apiRequests.push({ method: req.method ?? 'GET', path, body, account, authorization });
    if (account === '') {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 401, message: 'Unauthorized' }));
      return;
    }
    const answer = this.options.api!.answer(account, { method: req.method ?? 'GET', path, body });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  }

  private async resource(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const found = token === undefined ? undefined : await this.provider.AccessToken.find(token);
    if (found === undefined || found.isExpired) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 401, message: 'Unauthorized' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.options.resources[path]!(found.accountId)));
  }
}

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

/** oidc-provider's storage, in this process: what its built-in one does, without its start-up warning. */
class MemoryAdapter {
  private static readonly entries = new Map<string, Payload>();

  constructor(private readonly model: string) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: Payload): Promise<void> {
    MemoryAdapter.entries.set(this.key(id), payload);
  }

  async find(id: string): Promise<Payload | undefined> {
    return MemoryAdapter.entries.get(this.key(id));
  }

  async findByUserCode(code: string): Promise<Payload | undefined> {
    return [...MemoryAdapter.entries.values()].find((p) => p.userCode === code);
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    return [...MemoryAdapter.entries.values()].find((p) => p.uid === uid);
  }

  async consume(id: string): Promise<void> {
    const found = MemoryAdapter.entries.get(this.key(id));
    if (found) found.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    MemoryAdapter.entries.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, payload] of MemoryAdapter.entries) if (payload.grantId === grantId) MemoryAdapter.entries.delete(key);
  }
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}
