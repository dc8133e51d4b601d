import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import type { ConsoleAnswer, ConsolePageRequest, ConsolePages, ConsoleViewer } from '../../core/plugin/contributions.js';
import { StoreError } from '../../core/store/key-value-store.js';
import type { HostCheck } from '../http/host-check.js';
import type { ConsoleAccess } from './access.js';
import { LIVE_SCRIPT } from './assets/live-script.js';
import { STYLESHEET } from './assets/stylesheet.js';
import { readForm, redirect, sendAsset, sendHtml } from './http-kit.js';
import { page, type NavLink } from './pages/layout.js';
import { problemPage } from './pages/sign-in-page.js';
import { ConsoleRequest, NEXT_COOKIE, SESSION_COOKIE } from './request-context.js';
import type { CheckedSessions } from './session-check.js';
import type { ConsoleSession } from './sessions.js';
import type { SignInRoutes } from './sign-in/sign-in-routes.js';

/** A page a plugin contributes, with the plugin's pages module that answers it. */
export interface MountedPage {
  plugin: string;
  path: string;
  label?: string;
  home: boolean;
  pages: ConsolePages;
}

export interface ConsoleParts {
  mounted: readonly MountedPage[];
  sessions: CheckedSessions;
  access: ConsoleAccess;
  signIn: SignInRoutes;
  publicUrl: string;
  hostCheck: HostCheck;
  logger: Logger;
}

/** The header the console's script sends with what it fetches (a `data-live` part): signed out, it gets a 401, not the sign-in page. */
export const LIVE_HEADER = 'x-console-live';

/**
 * The console's frame, a route module of the HTTP server (`/console` and below), independent of MCP: its
 * assets, signing in and out, the session every other request needs, the CSRF token and origin every POST needs,
 * and the layout the contributed pages are drawn in. Under a Host name that is not the server's nothing is
 * answered (DNS rebinding). Returns false for any other path.
 */
export function consoleRoutes(parts: ConsoleParts): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  const frame = new Frame(parts);
  return async (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    if (path !== '/console' && !path.startsWith('/console/')) return false;
    if (!parts.hostCheck.allows(request.headers.host)) {
      parts.hostCheck.refuse(response, request.headers.host);
      return true;
    }
    const rq = new ConsoleRequest(request, response, parts.publicUrl, parts.sessions);
    try {
      await frame.handle(rq);
    } catch (error) {
      parts.logger.error({ err: error, path }, 'console request failed');
      // Sessions and approvals live in the shared store: while it is down, say so (and that nothing was done).
      const shown =
        error instanceof StoreError
          ? problemPage('Store unavailable', 'The shared store (MCP_STORE_URL) cannot be reached right now, so nothing was done. Try again shortly.')
          : problemPage('Something went wrong', 'The console could not answer; the server log has the details. Try again.');
      if (!response.headersSent) sendHtml(response, error instanceof StoreError ? 503 : 500, shown);
      else response.end();
    }
    return true;
  };
}

class Frame {
  private readonly nav: NavLink[];

  constructor(private readonly parts: ConsoleParts) {
    this.nav = parts.mounted.flatMap((m) =>
      m.label === undefined ? [] : [{ page: m.path, label: m.label, href: m.home ? '/console' : `/console/${m.path}` }],
    );
  }

  async handle(rq: ConsoleRequest): Promise<void> {
    const { path } = rq;
    const method = rq.request.method ?? 'GET';
    if (method === 'GET' && path === '/console/assets/console.css') return sendAsset(rq.response, 'text/css; charset=utf-8', STYLESHEET);
    if (method === 'GET' && path === '/console/assets/console.js') return sendAsset(rq.response, 'text/javascript; charset=utf-8', LIVE_SCRIPT);
    if (path === '/console/signin') return method === 'POST' ? this.parts.signIn.signIn(rq) : this.parts.signIn.signInForm(rq);
    if (path === '/console/callback' && method === 'GET') return this.parts.signIn.callback(rq);
    if (path === '/console/signout' && method === 'POST') return this.parts.signIn.signOut(rq);
    const mounted = this.pageAt(path);
    const session = await rq.current();
    if (session === undefined) {
      // A page may say itself why nothing was done (a link's last step, whose handle must not outlive the request).
      const own = mounted?.pages.signedOut?.({ method, path });
      if (own !== undefined)
        return sendHtml(rq.response, own.status, problemPage(own.title, own.text, '/console/signin'), rq.ended ? [rq.clear(SESSION_COOKIE)] : []);
      return this.signedOut(rq, method, mounted !== undefined);
    }
    const s = session.data;
    if (mounted === undefined) return this.notFound(rq);
    let form: URLSearchParams | undefined;
    if (method === 'POST') {
      form = await readForm(rq.request);
      if (form === undefined || !rq.formAllowed(form, s.csrf)) return this.forged(rq, s);
    }
    const viewer = this.viewerOf(s);
    const request: ConsolePageRequest = { method, path, query: rq.query, viewer, ...(form === undefined ? {} : { form }) };
    const answer = await mounted.pages.answer(request);
    if (answer === undefined) return this.notFound(rq);
    this.send(rq, answer, viewer, mounted.path);
  }

  /** The page whose path holds `path`: the home page for /console itself. */
  private pageAt(path: string): MountedPage | undefined {
    if (path === '/console' || path === '/console/') return this.parts.mounted.find((m) => m.home);
    return this.parts.mounted.find((m) => path === `/console/${m.path}` || path.startsWith(`/console/${m.path}/`));
  }

  private signedOut(rq: ConsoleRequest, method: string, aPage: boolean): void {
    // A session its re-check ended: the cookie goes too, and the sign-in page says why.
    const cookies = rq.ended ? [rq.clear(SESSION_COOKIE)] : [];
    const signIn = rq.ended ? '/console/signin?notice=ended' : '/console/signin';
    if (rq.request.headers[LIVE_HEADER] !== undefined) return sendHtml(rq.response, 401, problemPage('Signed out', 'Sign in again.', signIn), cookies);
    // A link followed before signing in (a webhook event's) is where the sign-in leads back to.
    if (method === 'GET' && aPage && rq.path !== '/console' && rq.path !== '/console/')
      cookies.push(rq.cookie(NEXT_COOKIE, encodeURIComponent(rq.request.url ?? rq.path), 600, '/console', 'Lax'));
    if (method === 'GET') return redirect(rq.response, signIn, cookies);
    const why = rq.ended ? 'Your sign-in has ended (your token or your groups changed)' : 'Your sign-in has expired';
    return sendHtml(rq.response, 403, problemPage('Not signed in', `${why}, so nothing was done. Sign in and try again.`, signIn), cookies);
  }

  private send(rq: ConsoleRequest, answer: ConsoleAnswer, viewer: ConsoleViewer, current: string): void {
    if ('redirect' in answer) {
      // Only somewhere in the console: never another site, never `//host`.
      if (!/^\/console([/?#]|$)/.test(answer.redirect)) throw new Error(`a console page redirected outside the console (${answer.redirect})`);
      return redirect(rq.response, answer.redirect);
    }
    if ('fragment' in answer) return sendHtml(rq.response, answer.status ?? 200, answer.fragment);
    sendHtml(rq.response, answer.status ?? 200, page(answer.title, answer.body, { viewer, nav: this.nav, current, banner: answer.banner }));
  }

  private notFound(rq: ConsoleRequest): void {
    sendHtml(rq.response, 404, problemPage('Not found', `There is no console page at ${rq.path}.`));
  }

  private forged(rq: ConsoleRequest, s: ConsoleSession): void {
    this.parts.logger.warn(
      { path: rq.path, subject: s.principal.subject, origin: rq.request.headers.origin },
      'console POST refused: no valid CSRF token or a foreign origin',
    );
    sendHtml(
      rq.response,
      403,
      problemPage(
        'Refused',
        'This form did not come from the console, or is out of date (its CSRF token does not match your session). Nothing was done; reload the page and try again.',
      ),
    );
  }

  private viewerOf(s: ConsoleSession): ConsoleViewer {
    const { subject, groups, via } = s.principal;
    return { subject, groups, via, csrf: s.csrf, role: this.parts.access.roleOf(s.principal) ?? 'viewer' };
  }
}
