import type { ConsoleAnswer, ConsoleContext, ConsolePageRequest, ConsolePages, KernelView } from '../../../core/plugin/contributions.js';
import type { Clock } from '../../../core/store/key-value-store.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { ApprovalNotifier } from '../approvals/notify/approval-notifier.js';
import type { AuditLog } from '../audit/audit-log.js';
import { explainCall, UnexplainableCall, type Explanation } from '../engine/explain-call.js';
import { POLICY_TOKENS, PolicySettings } from '../policy-settings.js';
import type { PolicySource } from '../policy-source.js';
import { ApproverAccess } from './approver-access.js';
import type { ConsoleLink } from '../console-link.js';
import { AuditView } from './audit-view.js';
import { DecisionHistory } from './decision-history.js';
import { BULK, DECIDE, DecisionRoutes, ONE, principalOf } from './decision-routes.js';
import { Decisions, type Verdict } from './decisions.js';
import { activityPage } from './pages/activity-page.js';
import { approvalsPage, pendingCards, type ApprovalsView } from './pages/approvals-page.js';
import { decidedPage } from './pages/decided-page.js';
import type { Banner, Viewer } from './pages/page-parts.js';
import { policyPage, type ExplainForm } from './pages/policy-page.js';

const NOTICES: Record<string, (query: URLSearchParams) => string | undefined> = {
  granted: (q) => (APPROVAL.test(q.get('id') ?? '') ? `Granted ${q.get('id')}: the caller's next identical call runs once.` : undefined),
  rejected: (q) => (APPROVAL.test(q.get('id') ?? '') ? `Rejected ${q.get('id')}: the caller's retries are refused, with your reason.` : undefined),
  'rejected-several': (q) =>
    /^\d{1,4}$/.test(q.get('n') ?? '')
      ? `Rejected ${q.get('n')} of ${q.get('subject') ?? ''}'s held calls: their retries are refused, with your reason.`
      : undefined,
};
const APPROVAL = /^apr-[0-9a-f]{24}$/;

/**
 * The policy plugin's console pages (contributions.ts): the pending approvals (the console's first page, with
 * the decision pages under /console/approvals), the decided tab and the recent activity (from the audit log), and
 * the policy in force with its "would this call be allowed?" form. Approvers (MCP_APPROVER_GROUPS) have the role
 * `approver`. The frame has signed the person in and checked every POST's CSRF token before a request comes here.
 */
export function approvalsConsole({ kernel, logger, clock, url }: ConsoleContext): ConsolePages {
  const policy = kernel.settings.of(PolicySettings);
  const approvals = kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
  kernel.resolve<ConsoleLink>(POLICY_TOKENS.ConsoleLink).servedAt(url);
  // The approvals store's own rule of who decides, so the console draws what the store will enforce.
  const access = new ApproverAccess(approvals.deciders);
  if (access.approverGroups.length === 0)
    logger.warn('MCP_CONSOLE=true but MCP_APPROVER_GROUPS is empty: the console shows approvals, and nobody can decide there.');
  if (policy.MCP_APPROVAL_WEBHOOK_URL !== '') {
    if (url === undefined)
      logger.warn('Approval webhook events carry no console link: set MCP_CONSOLE_PUBLIC_URL to the address approvers open the console at.');
    kernel.resolve<ApprovalNotifier>(POLICY_TOKENS.Notifier).linkTo(url);
  }
  const audit = policy.MCP_AUDIT_LOG === '' ? undefined : kernel.resolve<AuditLog>(POLICY_TOKENS.AuditLog);
  return new ApprovalsConsole({
    kernel,
    approvals,
    policy: policy.MCP_POLICY_FILE === '' ? undefined : kernel.resolve<PolicySource>(POLICY_TOKENS.PolicySource),
    audit: audit === undefined ? undefined : new AuditView(audit.logPath),
    history: audit === undefined ? undefined : new DecisionHistory(audit.logPath),
    access,
    decisions: new Decisions(approvals, access, logger),
    clock,
  });
}

interface Parts {
  kernel: KernelView;
  approvals: ApprovalStore;
  policy?: PolicySource;
  audit?: AuditView;
  history?: DecisionHistory;
  access: ApproverAccess;
  decisions: Decisions;
  clock: Clock;
}

class ApprovalsConsole implements ConsolePages {
  private readonly deciding: DecisionRoutes;

  constructor(private readonly parts: Parts) {
    this.deciding = new DecisionRoutes(parts.approvals, parts.decisions, parts.history, (rq) => this.view(rq));
  }

  roleOf(person: Parameters<ApproverAccess['roleOf']>[0]): string | undefined {
    return this.parts.access.roleOf(person);
  }

  async answer(rq: ConsolePageRequest): Promise<ConsoleAnswer | undefined> {
    const { path, method, form } = rq;
    if (method === 'GET' && (path === '/console' || path === '/console/')) return this.approvals(rq, this.notice(rq));
    if (method === 'GET' && path === '/console/approvals/live') return { fragment: pendingCards(await this.parts.approvals.list(), this.view(rq)) };
    if (method === 'GET' && path === '/console/decided') return this.decided(rq);
    if (method === 'GET' && path === '/console/activity') return this.activity(rq);
    if (path === BULK) return form !== undefined ? this.deciding.bulkReject(rq, form) : this.deciding.bulkConfirm(rq);
    const one = ONE.exec(path);
    if (one !== null && method === 'GET') return this.deciding.one(rq, one[1]!);
    if (method === 'GET' && path === '/console/policy') return this.policy(rq);
    if (form !== undefined && path === '/console/policy/explain') return this.explain(rq, form);
    const decide = DECIDE.exec(path);
    if (decide !== null && form !== undefined) return this.deciding.decide(rq, form, decide[1]!, decide[2] as Verdict);
    if (decide !== null && method === 'GET') return this.deciding.confirm(rq, decide[1]!, decide[2] as Verdict);
    return undefined;
  }

  private async approvals(rq: ConsolePageRequest, banner?: Banner): Promise<ConsoleAnswer> {
    return approvalsPage(await this.parts.approvals.list(), this.view(rq), banner);
  }

  private async decided(rq: ConsolePageRequest): Promise<ConsoleAnswer> {
    const page = Number.parseInt(rq.query.get('page') ?? '1', 10);
    const history = await this.parts.history?.page(Number.isFinite(page) ? page : 1);
    return decidedPage(this.viewer(rq), { path: this.parts.audit?.path, history, now: this.parts.clock.now() });
  }

  private async activity(rq: ConsolePageRequest): Promise<ConsoleAnswer> {
    const q = rq.query;
    const filter = { principal: q.get('principal')?.trim() ?? '', tool: q.get('tool') ?? '', outcome: q.get('outcome') ?? '' };
    const audit = this.parts.audit;
    if (audit === undefined) return activityPage(this.viewer(rq), filter, { records: [], scanned: 0, principals: [], tools: [] });
    const [{ records, scanned, seen }, verification] = await Promise.all([audit.recent(filter), audit.verification()]);
    return activityPage(this.viewer(rq), filter, { path: audit.path, records, scanned, verification, principals: seen.principals, tools: seen.tools });
  }

  private policy(rq: ConsolePageRequest, form?: ExplainForm, result?: Explanation | { problem: string }, status = 200): ConsoleAnswer {
    const tools = this.parts.kernel
      .definitions()
      .map((t) => t.spec.name)
      .sort();
    const shown = form ?? { tool: tools[0] ?? '', args: '{}', subject: rq.viewer.subject, groups: rq.viewer.groups.join(', ') };
    const engine = this.parts.policy?.current;
    return { status, ...policyPage(this.viewer(rq), { path: this.parts.policy?.path, engine, tools, form: shown, result }) };
  }

  private explain(rq: ConsolePageRequest, form: URLSearchParams): ConsoleAnswer {
    const fields: ExplainForm = {
      tool: form.get('tool') ?? '',
      args: form.get('args') ?? '{}',
      subject: (form.get('subject') ?? '').trim(),
      groups: form.get('groups') ?? '',
    };
    const engine = this.parts.policy?.current;
    if (engine === undefined) return this.policy(rq);
    let args: unknown;
    try {
      args = JSON.parse(fields.args.trim() === '' ? '{}' : fields.args);
    } catch (error) {
      const problem = `The arguments must be a JSON object, such as {"path": "/rest/api/3/issue/PLAT-1"}: ${(error as Error).message}`;
      return this.policy(rq, fields, { problem }, 400);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      return this.policy(rq, fields, { problem: 'The arguments must be a JSON object.' }, 400);
    if (fields.subject === '') return this.policy(rq, fields, { problem: 'Name the caller.' }, 400);
    const groups = fields.groups
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    const principal = { subject: fields.subject, groups, via: rq.viewer.via };
    try {
      return this.policy(rq, fields, explainCall(this.parts.kernel, engine, fields.tool, args as Record<string, unknown>, principal));
    } catch (error) {
      if (!(error instanceof UnexplainableCall)) throw error;
      return this.policy(rq, fields, { problem: error.message }, 400);
    }
  }

  private notice(rq: ConsolePageRequest): Banner | undefined {
    const text = NOTICES[rq.query.get('notice') ?? '']?.(rq.query);
    return text === undefined ? undefined : { kind: 'notice', text };
  }

  private viewer(rq: ConsolePageRequest): Viewer {
    const { subject, groups, csrf } = rq.viewer;
    return { subject, groups, csrf, approver: this.parts.access.isApprover(principalOf(rq)) };
  }

  private view(rq: ConsolePageRequest): ApprovalsView {
    const tools = this.parts.kernel.definitions();
    return {
      viewer: this.viewer(rq),
      principal: principalOf(rq),
      access: this.parts.access,
      vendorOf: (name) => {
        const tool = tools.find((t) => t.spec.name === name);
        return tool?.upstream?.identity.vendor ?? tool?.plugin ?? 'unknown';
      },
      now: this.parts.clock.now(),
    };
  }
}
