import { createHash, randomBytes } from 'node:crypto';
import { MockUpstream, type MockReply, type RecordedRequest } from '../../../server/testing/mock-upstream.js';
import { leakAudit } from '../leak-audit/leak-audit.js';

export interface GithubApp {
  clientId: string;
  clientSecret: string;
  /** A GitHub App with expiring user tokens answers with refresh tokens; an OAuth App's tokens do not expire. */
  type: 'oauth-app' | 'github-app';
  /** Seconds between device-flow polls GitHub asks for (5 unless a test shortens it). */
  deviceInterval?: number;
}

interface Issued {
  login: string;
  id: number;
}

/**
 * GitHub's OAuth endpoints on loopback, as GitHub Enterprise Server lays them out (OAuth pages at the host's
 * root, the REST API under /api/v3), following GitHub's documented shapes: POST /login/device/code,
 * POST /login/oauth/access_token for a code, a device code or a refresh token (answers are JSON when the client
 * accepts JSON, form-encoded otherwise; errors are HTTP 200 with `error`, as GitHub sends them, the device
 * errors `authorization_pending` and `slow_down` included), DELETE /api/v3/applications/{client_id}/grant with
 * the app's Basic credentials, and GET /api/v3/user. Codes and refresh tokens are single use; every token it
 * issues becomes a leak-check canary.
 */
export class GithubOAuthMock {
  readonly refreshUses: Array<{ token: string; ok: boolean }> = [];
  /** How long a GitHub App's user tokens it issues last, in seconds (GitHub: 8 hours). */
  tokenSeconds = 28_800;
  /** Answers a refresh grant in GitHub's place when it returns a reply (a rate limit), before the token is read or spent. */
  limitRefresh: (() => MockReply | undefined) | undefined;
  private readonly codes = new Map<string, Issued & { challenge: string | null; redirectUri: string | null }>();
  private readonly devices = new Map<string, Issued & { userCode: string; approved: boolean; interval: number; lastPoll: number }>();
  private readonly access = new Map<string, Issued & { expiresAt: number | null }>();
  private readonly refresh = new Map<string, Issued & { used: boolean }>();

  private constructor(
    private readonly mock: MockUpstream,
    readonly app: GithubApp,
  ) {}

  static async start(app: GithubApp): Promise<GithubOAuthMock> {
    const mock = await MockUpstream.start();
    const github = new GithubOAuthMock(mock, app);
    mock.on('POST', '/login/device/code', (r) => github.deviceCode(r));
    mock.on('POST', '/login/oauth/access_token', (r) => github.token(r));
    mock.on('DELETE', '/api/v3/applications/:client_id/grant', (r) => github.deleteGrant(r));
    mock.on('GET', '/api/v3/user', (r) => github.user(r));
    return github;
  }

  /** The REST API base URL, as GITHUB_API_URL names it for GitHub Enterprise Server. */
  get apiUrl(): string {
    return `${this.mock.url}/api/v3`;
  }

  get requests(): RecordedRequest[] {
    return this.mock.requests;
  }

  /** The person approves the app at the authorization URL: GitHub redirects back with a code (returned). */
  approve(authorizationUrl: string, login: string): string {
    const query = new URL(authorizationUrl).searchParams;
    if (query.get('client_id') !== this.app.clientId) throw new Error('authorization URL for another app');
    const code = randomBytes(10).toString('hex');
    this.codes.set(code, { login, id: idOf(login), challenge: query.get('code_challenge'), redirectUri: query.get('redirect_uri') });
    return code;
  }

  /** The person types the user code at /login/device. */
  enterUserCode(userCode: string, login: string): void {
    for (const device of this.devices.values()) if (device.userCode === userCode) Object.assign(device, { approved: true, login, id: idOf(login) });
  }

  /** Whether GitHub would accept this token now. */
  accepts(token: string): boolean {
    const issued = this.access.get(token);
    return issued !== undefined && (issued.expiresAt === null || issued.expiresAt > Date.now());
  }

  /** The GitHub login a token acts as (a person's issued token, or a service token given to `serviceToken`). */
  loginOf(token: string): string | undefined {
    return this.accepts(token) ? this.access.get(token)!.login : undefined;
  }

  /** A token the deployment was given (GITHUB_TOKEN), acting as a bot account. */
  serviceToken(token: string, login: string): void {
    this.access.set(token, { login, id: idOf(login), expiresAt: null });
  }

  /** Every token GitHub issued to people, to look for where they must not be. */
  get issuedTokens(): string[] {
    return [...this.access.keys(), ...this.refresh.keys()];
  }

  /**
   * Serves POST /api/v3/repos/{owner}/{repo}/issues as GitHub does: 201 with the issue, its `user` the account the
   * bearer token acts as; 401 "Bad credentials" for a token it does not accept (revoked, expired).
   */
  serveIssues(): void {
    let number = 0;
    this.mock.on('POST', '/api/v3/repos/:owner/:repo/issues', (request) => {
      const token = /^(?:token|bearer) (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const login = this.loginOf(token);
      if (login === undefined) return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } };
      const { title } = JSON.parse(request.body) as { title: string };
      number += 1;
      const { owner, repo } = request.params;
      return {
        status: 201,
        body: {
          number,
          title,
          state: 'open',
          html_url: `https://github.example/${owner}/${repo}/issues/${number}`,
          user: { login, id: idOf(login) },
          labels: [],
          assignees: [],
        },
      };
    });
  }

  /**
   * Serves GET /api/v3/repos/{owner}/{repo} with what `reply` gives for the login the bearer token acts as
   * (a rate limit for one person, a repository for another); 401 for a token it does not accept.
   */
  serveRepository(reply: (login: string) => MockReply): void {
    this.mock.on('GET', '/api/v3/repos/:owner/:repo', (request) => {
      const login = this.loginOf(/^(?:token|bearer) (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
      return login === undefined ? { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } } : reply(login);
    });
  }

  /** Forgets every token of `login`, as revoking the app's authorization at GitHub does. */
  revokeAll(login: string): void {
    for (const [t, who] of this.access) if (who.login === login) this.access.delete(t);
  }

  close(): Promise<void> {
    return this.mock.close();
  }

  private deviceCode(request: RecordedRequest): MockReply {
    const form = fields(request);
    if (form.client_id !== this.app.clientId)
      return answer(request, { error: 'incorrect_client_credentials', error_description: 'The client_id is not valid.' });
    const deviceCode = randomBytes(20).toString('hex');
    leakAudit.addCanaries([deviceCode]);
    const userCode = `${randomBytes(2).toString('hex').toUpperCase()}-${randomBytes(2).toString('hex').toUpperCase()}`;
    const interval = this.app.deviceInterval ?? 5;
    this.devices.set(deviceCode, { userCode, approved: false, interval, lastPoll: 0, login: '', id: 0 });
    return answer(request, { device_code: deviceCode, user_code: userCode, verification_uri: `${this.mock.url}/login/device`, expires_in: 900, interval });
  }

  private token(request: RecordedRequest): MockReply {
    const form = fields(request);
    if (form.client_id !== this.app.clientId)
      return answer(request, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
    if (form.grant_type === 'urn:ietf:params:oauth:grant-type:device_code') return this.deviceToken(request, form);
    if (form.client_secret !== this.app.clientSecret) {
      return answer(request, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
    }
    if (form.grant_type === 'refresh_token') {
      const limited = this.limitRefresh?.();
      if (limited !== undefined) return limited;
      const old = this.refresh.get(form.refresh_token ?? '');
      this.refreshUses.push({ token: hash(form.refresh_token ?? ''), ok: old !== undefined && !old.used });
      if (old === undefined || old.used)
        return answer(request, { error: 'bad_refresh_token', error_description: 'The refresh token passed is incorrect or expired.' });
      old.used = true;
      return answer(request, this.issue(old));
    }
    const code = this.codes.get(form.code ?? '');
    this.codes.delete(form.code ?? '');
    const verified =
      code !== undefined &&
      (code.challenge === null ||
        createHash('sha256')
          .update(form.code_verifier ?? '')
          .digest('base64url') === code.challenge);
    if (!verified || (form.redirect_uri !== undefined && form.redirect_uri !== code.redirectUri)) {
      return answer(request, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
    }
    return answer(request, this.issue(code));
  }

  private deviceToken(request: RecordedRequest, form: Record<string, string>): MockReply {
    const device = this.devices.get(form.device_code ?? '');
    if (device === undefined) return answer(request, { error: 'expired_token', error_description: 'This device_code has expired.' });
    const [previous, now] = [device.lastPoll, Date.now()];
    device.lastPoll = now;
    // Polled again before the interval passed: GitHub adds 5 s to it and says the new one.
    if (previous !== 0 && now - previous < device.interval * 1000 && !device.approved) {
      device.interval += 5;
      return answer(request, { error: 'slow_down', error_description: 'Too many requests have been made in the same timeframe.', interval: device.interval });
    }
    if (!device.approved) return answer(request, { error: 'authorization_pending', error_description: 'The authorization request is still pending.' });
    this.devices.delete(form.device_code!);
    return answer(request, this.issue(device));
  }

  private issue(who: Issued): Record<string, unknown> {
    const accessToken = `ghu_${randomBytes(18).toString('hex')}`;
    leakAudit.addCanaries([accessToken]);
    if (this.app.type === 'oauth-app') {
      this.access.set(accessToken, { ...who, expiresAt: null });
      return { access_token: accessToken, token_type: 'bearer', scope: 'repo,workflow' };
    }
    const refreshToken = `ghr_${randomBytes(30).toString('hex')}`;
    leakAudit.addCanaries([refreshToken]);
    this.access.set(accessToken, { ...who, expiresAt: Date.now() + this.tokenSeconds * 1000 });
    this.refresh.set(refreshToken, { login: who.login, id: who.id, used: false });
    return {
      access_token: accessToken,
      expires_in: this.tokenSeconds,
      refresh_token: refreshToken,
      refresh_token_expires_in: 15897600,
      scope: '',
      token_type: 'bearer',
    };
  }

  private deleteGrant(request: RecordedRequest): MockReply {
    const basic = Buffer.from((request.headers.authorization ?? '').replace(/^basic /i, ''), 'base64').toString('utf8');
    if (basic !== `${this.app.clientId}:${this.app.clientSecret}` || request.params.client_id !== this.app.clientId) {
      return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    }
    const token = (JSON.parse(request.body || '{}') as { access_token?: string }).access_token ?? '';
    const issued = this.access.get(token);
    if (issued === undefined) return { status: 422, body: { message: 'Validation Failed' } };
    for (const [t, who] of this.access) if (who.login === issued.login) this.access.delete(t);
    for (const [t, who] of this.refresh) if (who.login === issued.login) this.refresh.delete(t);
    return { status: 204 };
  }

  private user(request: RecordedRequest): MockReply {
    const token = /^(?:token|bearer) (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!this.accepts(token)) return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } };
    const who = this.access.get(token)!;
    return { body: { login: who.login, id: who.id, type: 'User' } };
  }
}

/** The body's fields: GitHub takes form-encoded or JSON requests (octokit sends JSON). */
function fields(request: RecordedRequest): Record<string, string> {
  if (/json/.test(String(request.headers['content-type']))) return JSON.parse(request.body || '{}') as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(request.body));
}

/** JSON for a client that accepts it, else form-encoded, as GitHub answers. */
function answer(request: RecordedRequest, body: Record<string, unknown>): MockReply {
  if (/application\/json/.test(String(request.headers.accept))) return { body };
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString(),
  };
}

function idOf(login: string): number {
  return parseInt(createHash('sha256').update(login).digest('hex').slice(0, 6), 16);
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}
