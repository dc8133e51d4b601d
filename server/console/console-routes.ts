import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { StoreError, type Clock } from '../../core/store/key-value-store.js';
import type { ApprovalStore } from '../../plugins/policy/index.js';
import type { PolicySource } from '../../plugins/policy/index.js';
import { explainCall, UnexplainableCall, type Explanation } from '../policy/explain-call.js';
import type { ConsoleAccess } from './access.js';
import { LIVE_SCRIPT } from './assets/live-script.js';
import { STYLESHEET } from './assets/stylesheet.js';
import type { AuditView } from './audit-view.js';
import type { DecisionHistory } from './decision-history.js';
import { BULK, DECIDE, DecisionRoutes, ONE } from './decision-routes.js';
import type { Decisions, Verdict } from './decisions.js';
import { readForm, redirect, sendAsset, sendHtml } from './http-kit.js';
import { activityPage } from './pages/activity-page.js';
import { approvalsPage, pendingCards, type ApprovalsView } from './pages/approvals-page.js';
import { decidedPage } from './pages/decided-page.js';
import type { Banner, Viewer } from './pages/layout.js';
import { policyPage, type ExplainForm } from './pages/policy-page.js';
import { problemPage } from './pages/sign-in-page.js';
import { ConsoleRequest, NEXT_COOKIE, SESSION_COOKIE } from './request-context.js';
import type { CheckedSessions } from './session-check.js';
import type { ConsoleSession } from './sessions.js';
import type { SignInRoutes } from './sign-in/sign-in-routes.js';

export interface ConsoleParts {
  kernel: Kernel;
  approvals: ApprovalStore;
  policy?: PolicySource;
  audit?: AuditView;
  history?: DecisionHistory;
  sessions: CheckedSessions;
  access: ConsoleAccess;
  decisions: Decisions;
  signIn: SignInRoutes;
  publicUrl: string;
  clock: Clock;
  logger: Logger;
}

const NOTICES: Record<string, (query: URLSearchParams) => string | undefined> = {
  granted: (q) => (APPROVAL.test(q.get('id') ?? '') ? `Granted ${q.get('id')}: the caller's next identical call runs once.` : undefined),
  rejected: (q) => (APPROVAL.test(q.get('id') ?? '') ? `Rejected ${q.get('id')}: the caller's retries are refused, with your reason.` : undefined),
  'rejected-several': (q) =>
    /^\d{1,4}$/.test(q.get('n') ?? '')
      ? `Rejected ${q.get('n')} of ${q.get('subject') ?? ''}'s held calls: their retries are refused, with your reason.`
      : undefined,
};
const APPROVAL = /^apr-[0-9a-f]{24}$/;
/** Pages worth coming back to after signing in (a webhook event's link): GETs of the console's own pages. */
const RETURNABLE = /^\/console\/(approvals\/apr-[0-9a-f]{24}(\/(grant|reject))?|decided|activity|policy)$/;

/**
 * The approvals console, a route module of the HTTP server (`/console` and below), independent of MCP: it
 * reads and decides approvals in the shared store, reads this server's audit log and policy, and keeps its
 * sessions in the shared store. Returns false for any other path.
 */
export function consoleRoutes(parts: ConsoleParts): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  const routes = new Routes(parts);
  return async (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    if (path !== '/console' && !path.startsWith('/console/')) return false;
    const rq = new ConsoleRequest(request, response, parts.publicUrl, parts.sessions);
    try {
      await routes.handle(rq);
    } catch (error) {
      parts.logger.error({ err: error, path }, 'console request failed');
      // Sessions and approvals live in the shared store: while it is down, say so (and that nothing was done).
      const page =
        error instanceof StoreError
          ? problemPage('Store unavailable', 'The shared store (MCP_STORE_URL) cannot be reached right now, so nothing was done. Try again shortly.')
          : problemPage('Something went wrong', 'The console could not answer; the server log has the details. Try again.');
      if (!response.headersSent) sendHtml(response, error instanceof StoreError ? 503 : 500, page);
      else response.end();
    }
    return true;
  };
}

class Routes {
  private readonly deciding: DecisionRoutes;

  constructor(private readonly parts: ConsoleParts) {
    this.deciding = new DecisionRoutes(
      parts.approvals,
      parts.decisions,
      parts.history,
      (s) => this.view(s),
      (rq, s) => this.forged(rq, s),
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
    const session = await rq.current();
    if (session === undefined) {
      // A session its re-check ended: the cookie goes too, and the sign-in page says why.
      const cookies = rq.ended ? [rq.clear(SESSION_COOKIE)] : [];
      const signIn = rq.ended ? '/console/signin?notice=ended' : '/console/signin';
      if (path === '/console/approvals/live') return sendHtml(rq.response, 401, problemPage('Signed out', 'Sign in again.', signIn), cookies);
      // A link followed before signing in (a webhook event's) is where the sign-in leads back to.
      if (method === 'GET' && RETURNABLE.test(path)) cookies.push(rq.cookie(NEXT_COOKIE, encodeURIComponent(rq.request.url ?? path), 600, '/console', 'Lax'));
      if (method === 'GET') return redirect(rq.response, signIn, cookies);
      const why = rq.ended ? 'Your sign-in has ended (your token or your groups changed)' : 'Your sign-in has expired';
      return sendHtml(rq.response, 403, problemPage('Not signed in', `${why}, so nothing was done. Sign in and try again.`, signIn), cookies);
    }
    const s = session.data;
    if (method === 'GET' && (path === '/console' || path === '/console/')) return this.approvals(rq, s, this.notice(rq));
    if (method === 'GET' && path === '/console/approvals/live')
      return sendHtml(rq.response, 200, pendingCards(await this.parts.approvals.list(), this.view(s)));
    if (method === 'GET' && path === '/console/decided') return this.decided(rq, s);
    if (method === 'GET' && path === '/console/activity') return this.activity(rq, s);
    if (path === BULK) return method === 'POST' ? this.deciding.bulkReject(rq, s) : this.deciding.bulkConfirm(rq, s);
    const one = ONE.exec(path);
    if (one !== null && method === 'GET') return this.deciding.one(rq, s, one[1]!);
    if (method === 'GET' && path === '/console/policy') return this.policy(rq, s);
    if (method === 'POST' && path === '/console/policy/explain') return this.explain(rq, s);
    const decide = DECIDE.exec(path);
    if (decide !== null && method === 'POST') return this.deciding.decide(rq, s, decide[1]!, decide[2] as Verdict);
    if (decide !== null && method === 'GET') return this.deciding.confirm(rq, s, decide[1]!, decide[2] as Verdict);
    sendHtml(rq.response, 404, problemPage('Not found', `There is no console page at ${path}.`));
  }

  private async approvals(rq: ConsoleRequest, s: ConsoleSession, banner?: Banner, status = 200): Promise<void> {
    sendHtml(rq.response, status, approvalsPage(await this.parts.approvals.list(), this.view(s), banner));
  }

  private async decided(rq: ConsoleRequest, s: ConsoleSession): Promise<void> {
    const history = this.parts.history;
    const page = Number.parseInt(rq.query.get('page') ?? '1', 10);
    const data = { path: this.parts.audit?.path, history: await history?.page(Number.isFinite(page) ? page : 1), now: this.parts.clock.now() };
    sendHtml(rq.response, 200, decidedPage(this.viewer(s), data));
  }

  private async activity(rq: ConsoleRequest, s: ConsoleSession): Promise<void> {
    const filter = { principal: rq.query.get('principal')?.trim() ?? '', tool: rq.query.get('tool') ?? '', outcome: rq.query.get('outcome') ?? '' };
    const audit = this.parts.audit;
    if (audit === undefined) return sendHtml(rq.response, 200, activityPage(this.viewer(s), filter, { records: [], scanned: 0, principals: [], tools: [] }));
    const [{ records, scanned, seen }, verification] = await Promise.all([audit.recent(filter), audit.verification()]);
    sendHtml(
      rq.response,
      200,
      activityPage(this.viewer(s), filter, { path: audit.path, records, scanned, verification, principals: seen.principals, tools: seen.tools }),
    );
  }

  private policy(rq: ConsoleRequest, s: ConsoleSession, form?: ExplainForm, result?: Explanation | { problem: string }, status = 200): void {
    const tools = this.parts.kernel
      .definitions()
      .map((t) => t.spec.name)
      .sort();
    const shown = form ?? { tool: tools[0] ?? '', args: '{}', subject: s.principal.subject, groups: s.principal.groups.join(', ') };
    sendHtml(
      rq.response,
      status,
      policyPage(this.viewer(s), { path: this.parts.policy?.path, engine: this.parts.policy?.current, tools, form: shown, result }),
    );
  }

  private async explain(rq: ConsoleRequest, s: ConsoleSession): Promise<void> {
    const form = await readForm(rq.request);
    if (form === undefined || !rq.formAllowed(form, s.csrf)) return this.forged(rq, s);
    const fields: ExplainForm = {
      tool: form.get('tool') ?? '',
      args: form.get('args') ?? '{}',
      subject: (form.get('subject') ?? '').trim(),
      groups: form.get('groups') ?? '',
    };
    const engine = this.parts.policy?.current;
    if (engine === undefined) return this.policy(rq, s);
    let args: unknown;
    try {
      args = JSON.parse(fields.args.trim() === '' ? '{}' : fields.args);
    } catch (error) {
      return this.policy(
        rq,
        s,
        fields,
        { problem: `The arguments must be a JSON object, such as {"path": "/rest/api/3/issue/PLAT-1"}: ${(error as Error).message}` },
        400,
      );
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      return this.policy(rq, s, fields, { problem: 'The arguments must be a JSON object.' }, 400);
    if (fields.subject === '') return this.policy(rq, s, fields, { problem: 'Name the caller.' }, 400);
    const principal = {
      subject: fields.subject,
      groups: fields.groups
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
      via: s.principal.via,
    };
    try {
      return this.policy(rq, s, fields, explainCall(this.parts.kernel, engine, fields.tool, args as Record<string, unknown>, principal));
    } catch (error) {
      if (!(error instanceof UnexplainableCall)) throw error;
      return this.policy(rq, s, fields, { problem: error.message }, 400);
    }
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

  private notice(rq: ConsoleRequest): Banner | undefined {
    const text = NOTICES[rq.query.get('notice') ?? '']?.(rq.query);
    return text === undefined ? undefined : { kind: 'notice', text };
  }

  private viewer(s: ConsoleSession): Viewer {
    return { subject: s.principal.subject, groups: s.principal.groups, approver: this.parts.access.isApprover(s.principal), csrf: s.csrf };
  }

  private view(s: ConsoleSession): ApprovalsView {
    const tools = this.parts.kernel.definitions();
    return {
      viewer: this.viewer(s),
      principal: s.principal,
      access: this.parts.access,
      vendorOf: (name) => {
        const tool = tools.find((t) => t.spec.name === name);
        return tool?.upstream?.identity.vendor ?? tool?.plugin ?? 'unknown';
      },
      now: this.parts.clock.now(),
    };
  }
}
