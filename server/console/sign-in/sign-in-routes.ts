import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../../core/logging/logger.js';
import type { Principal } from '../../../core/identity/principal.js';
import type { Authenticator, AuthOutcome } from '../../auth/authenticator.js';
import { hashToken } from '../../auth/token-hash.js';
import type { ConsoleAccess } from '../access.js';
import { readForm, redirect, sendHtml } from '../http-kit.js';
import type { Banner } from '../pages/layout.js';
import { continuePage, signInPage } from '../pages/sign-in-page.js';
import { NEXT_COOKIE, SESSION_COOKIE, SIGN_IN_COOKIE, STATE_COOKIE, type ConsoleRequest } from '../request-context.js';
import { randomSecret, sameSecret, type SessionCredential, type SessionStore } from '../sessions.js';
import type { OidcSignIn } from './oidc-sign-in.js';

export type SignInMethod = { mode: 'tokens'; authenticator: Authenticator } | { mode: 'oidc'; oidc: OidcSignIn; provider: string };

const NOTICES: Record<string, Banner> = {
  'signed-out': { kind: 'notice', text: 'You are signed out.' },
  expired: { kind: 'error', text: 'Your sign-in has expired; sign in again.' },
  ended: { kind: 'error', text: 'Your sign-in has ended: your token or your groups changed. Sign in again.' },
};

/**
 * `/console/signin` and `/console/callback`: how an approver gets a session. A token is checked by the
 * server's own authenticator and never kept; an OIDC sign-in goes through the provider (see OidcSignIn).
 * Either way the session holds only the principal, and the cookie names it.
 */
export class SignInRoutes {
  constructor(
    private readonly method: SignInMethod,
    private readonly sessions: SessionStore,
    private readonly access: ConsoleAccess,
    private readonly logger: Logger,
  ) {}

  async signInForm(rq: ConsoleRequest, banner?: Banner, status = 200): Promise<void> {
    if (banner === undefined && (await rq.current()) !== undefined) return redirect(rq.response, '/console');
    const csrf = randomSecret();
    const shown = banner ?? NOTICES[rq.query.get('notice') ?? ''];
    const provider = this.method.mode === 'oidc' ? this.method.provider : undefined;
    const formTarget = this.method.mode === 'oidc' ? await this.method.oidc.authorizationOrigin() : undefined;
    sendHtml(
      rq.response,
      status,
      signInPage(this.method.mode, csrf, shown, provider),
      [rq.cookie(SIGN_IN_COOKIE, csrf, this.sessions.loginTtlSeconds)],
      formTarget,
    );
  }

  async signIn(rq: ConsoleRequest): Promise<void> {
    const form = await readForm(rq.request);
    const expected = rq.readCookie(SIGN_IN_COOKIE);
    if (form === undefined || expected === undefined || !rq.formAllowed(form, expected)) {
      return this.signInForm(rq, { kind: 'error', text: 'The sign-in form was out of date or did not come from this console; try again.' }, 403);
    }
    if (this.method.mode === 'tokens') {
      const token = (form.get('token') ?? '').trim().replace(/^Bearer\s+/i, '');
      const outcome = await this.method.authenticator.authenticate({ headers: { authorization: `Bearer ${token}` } } as IncomingMessage);
      // The session keeps the token's SHA-256 (what the tokens file holds), never the token, to re-check it.
      return this.complete(rq, outcome, 'token', [], { kind: 'token', sha256: hashToken(token) });
    }
    let begun: Awaited<ReturnType<OidcSignIn['begin']>>;
    try {
      begun = await this.method.oidc.begin(`${rq.base}/console/callback`);
    } catch (error) {
      this.logger.error({ err: (error as Error).message }, 'console sign-in: the identity provider cannot be reached');
      return this.signInForm(rq, { kind: 'error', text: 'The identity provider cannot be reached right now; try again shortly.' }, 503);
    }
    await this.sessions.saveLogin(begun.state, begun.login);
    redirect(rq.response, begun.url, [
      rq.cookie(STATE_COOKIE, begun.state, this.sessions.loginTtlSeconds, '/console/callback', 'Lax'),
      rq.clear(SIGN_IN_COOKIE),
    ]);
  }

  /** The provider's redirect back: the state must be this browser's, and is used once. */
  async callback(rq: ConsoleRequest): Promise<void> {
    if (this.method.mode !== 'oidc') return this.signInForm(rq, { kind: 'error', text: 'This console signs in with bearer tokens.' }, 404);
    const state = rq.query.get('state') ?? '';
    const cookie = rq.readCookie(STATE_COOKIE);
    const login = cookie !== undefined && sameSecret(state, cookie) ? await this.sessions.takeLogin(state) : undefined;
    if (login === undefined)
      return this.signInForm(rq, { kind: 'error', text: 'This sign-in was not started in this browser, or took too long; start again.' }, 400);
    const { outcome, credential } = await this.method.oidc.finish(new URL(`${rq.base}/console/callback?${rq.query.toString()}`), state, login);
    return this.complete(rq, outcome, 'oidc', [rq.clear(STATE_COOKIE, '/console/callback', 'Lax')], credential);
  }

  async signOut(rq: ConsoleRequest): Promise<void> {
    const session = await rq.current();
    if (session !== undefined) {
      const form = await readForm(rq.request);
      if (form === undefined || !rq.formAllowed(form, session.data.csrf))
        return this.signInForm(rq, { kind: 'error', text: 'The sign-out form did not come from this console.' }, 403);
      await this.sessions.destroy(session.id);
      this.logger.info({ subject: session.data.principal.subject }, 'console sign-out');
    }
    redirect(rq.response, '/console/signin?notice=signed-out', [rq.clear(SESSION_COOKIE)]);
  }

  private async complete(rq: ConsoleRequest, outcome: AuthOutcome, how: string, cookies: string[], credential: SessionCredential | undefined): Promise<void> {
    if (!('principal' in outcome)) {
      this.logger.warn({ how, failure: outcome.failure }, 'console sign-in refused');
      const text = how === 'token' ? 'That token is not recognised by this server.' : `The sign-in did not succeed: ${outcome.failure}`;
      return this.signInForm(rq, { kind: 'error', text }, outcome.status ?? 401);
    }
    // Every successful sign-in has one: the session is re-checked with it (session-check.ts).
    if (credential === undefined) throw new Error('a console sign-in succeeded without a credential to re-check');
    const principal: Principal = outcome.principal;
    if (!this.access.mayView(principal)) {
      this.logger.warn({ how, subject: principal.subject }, 'console sign-in refused: not a viewer or approver');
      return this.signInForm(
        rq,
        { kind: 'error', text: `${principal.subject} is not allowed in this console (MCP_CONSOLE_VIEWER_GROUPS, or a role such as approver).` },
        403,
      );
    }
    const { id } = await this.sessions.create(principal, credential);
    this.logger.info({ how, subject: principal.subject, role: this.access.roleOf(principal) ?? 'viewer' }, 'console sign-in');
    const ttl = Math.floor(this.sessions.ttlMs / 1000);
    const next = rq.nextPage();
    const all = [
      ...cookies,
      rq.cookie(SESSION_COOKIE, id, ttl),
      rq.clear(SIGN_IN_COOKIE),
      ...(next === '/console' ? [] : [rq.clear(NEXT_COOKIE, '/console', 'Lax')]),
    ];
    // After the provider's redirect, a 200 page moves on by itself: a redirect chain that began on another
    // site would not carry the SameSite=Strict cookie to the first console page.
    if (how === 'oidc') return sendHtml(rq.response, 200, continuePage(next), all);
    redirect(rq.response, next, all);
  }
}
