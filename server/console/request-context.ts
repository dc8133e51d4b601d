import type { IncomingMessage, ServerResponse } from 'node:http';
import { clearCookie, readCookie, serializeCookie } from './http-kit.js';
import type { CheckedSessions } from './session-check.js';
import { sameSecret, type ConsoleSession } from './sessions.js';

export const SESSION_COOKIE = 'mcp_console';
/** The sign-in form's CSRF token before there is a session (double submit: cookie and field must match). */
export const SIGN_IN_COOKIE = 'mcp_console_signin';
/** Binds an OIDC sign-in to the browser that started it (Lax: it must come back with the provider's redirect). */
export const STATE_COOKIE = 'mcp_console_state';
/** The console page a signed-out browser asked for (a webhook event's link): where signing in leads back to. */
export const NEXT_COOKIE = 'mcp_console_next';
const NEXT_PAGE = /^\/console(\/[A-Za-z0-9_-]+)*(\?[A-Za-z0-9_=&%.-]*)?$/;

/** One console request: its URL, where the console is, whether cookies must be Secure, who is signed in. */
export class ConsoleRequest {
  /** The path as sent (never resolved against a host: `//x` stays a path). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly secure: boolean;
  private session: { id: string; data: ConsoleSession } | null | undefined;
  /** Whether this request's session was ended by its re-check (its token revoked, its groups changed). */
  ended = false;

  constructor(
    readonly request: IncomingMessage,
    readonly response: ServerResponse,
    private readonly publicUrl: string,
    private readonly sessions: CheckedSessions,
  ) {
    const raw = request.url ?? '/';
    const at = raw.indexOf('?');
    this.path = at < 0 ? raw : raw.slice(0, at);
    this.query = new URLSearchParams(at < 0 ? '' : raw.slice(at + 1));
    const forwarded = String(request.headers['x-forwarded-proto'] ?? '')
      .split(',', 1)[0]!
      .trim();
    this.secure = this.base.startsWith('https:') || forwarded === 'https';
  }

  /** Where browsers reach the server: MCP_CONSOLE_PUBLIC_URL, or else what this request says. */
  get base(): string {
    if (this.publicUrl !== '') return this.publicUrl.replace(/\/+$/, '');
    return `http://${this.request.headers.host ?? 'localhost'}`;
  }

  /** The signed-in session, re-checked when its check is due, or undefined (read once per request). */
  async current(): Promise<{ id: string; data: ConsoleSession } | undefined> {
    if (this.session === undefined) {
      const id = readCookie(this.request, SESSION_COOKIE);
      const found = await this.sessions.lookup(id);
      this.ended = found !== undefined && 'ended' in found;
      this.session = found === undefined || 'ended' in found || id === undefined ? null : { id, data: found.session };
    }
    return this.session ?? undefined;
  }

  /**
   * Whether a POST may act: its CSRF field matches the expected token and, when the browser names the page it
   * came from (Origin), that page is the console's own. Either alone stops a forged form; both are checked.
   */
  formAllowed(form: URLSearchParams, expected: string): boolean {
    const origin = this.request.headers.origin;
    if (origin !== undefined && origin !== new URL(this.base).origin) return false;
    return sameSecret(form.get('csrf'), expected);
  }

  cookie(name: string, value: string, maxAgeSeconds: number, path = '/console', sameSite: 'Strict' | 'Lax' = 'Strict'): string {
    return serializeCookie(name, value, { path, maxAgeSeconds, secure: this.secure, sameSite });
  }

  clear(name: string, path = '/console', sameSite: 'Strict' | 'Lax' = 'Strict'): string {
    return clearCookie(name, { path, secure: this.secure, sameSite });
  }

  readCookie(name: string): string | undefined {
    return readCookie(this.request, name);
  }

  /** The page to go to after signing in: the one asked for before, if it is a console page, else the console. */
  nextPage(): string {
    let next = '';
    try {
      next = decodeURIComponent(this.readCookie(NEXT_COOKIE) ?? '');
    } catch {
      // a cookie this console did not write
    }
    // Only a path of the console itself: never another site, never `//host`.
    return NEXT_PAGE.test(next) ? next : '/console';
  }
}
