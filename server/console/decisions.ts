import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { ApprovalError, type ApprovalRecord, type ApprovalStore } from '../../plugins/policy/index.js';
import type { AuditLog } from '../../plugins/policy/index.js';
import { shapeOf, type Shape } from '../../plugins/policy/index.js';
import { publicIdentity } from '../../plugins/policy/index.js';
import type { ConsoleAccess, SessionPrincipal } from './access.js';

export type Verdict = 'grant' | 'reject';
export type DecisionOutcome = { ok: true; approval: ApprovalRecord } | { ok: false; status: number; message: string };

const APPROVAL_ID = /^apr-[0-9a-f]{24}$/;
export const MAX_REASON_CHARS = 500;

/**
 * An approver's grant or rejection, made only after the server checks it (the page's buttons are a
 * convenience, never the control): an approver, not the caller, a reason for a rejection, a pending approval.
 * The decision is recorded in the audit log with the approver, beside the approval store's own record.
 */
export class Decisions {
  constructor(
    private readonly approvals: ApprovalStore,
    private readonly access: ConsoleAccess,
    private readonly kernel: Kernel,
    private readonly audit: AuditLog | undefined,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async decide(principal: SessionPrincipal, id: string, verdict: Verdict, rawReason: string): Promise<DecisionOutcome> {
    const reason = rawReason.trim().replace(/\s+/g, ' ');
    if (!APPROVAL_ID.test(id)) return { ok: false, status: 404, message: `There is no approval ${id}.` };
    if (verdict === 'reject' && reason === '') return { ok: false, status: 400, message: 'Say why you reject the call: the reason is told to the caller.' };
    if (reason.length > MAX_REASON_CHARS) return { ok: false, status: 400, message: `Keep the reason under ${MAX_REASON_CHARS} characters.` };
    const pending = await this.approvals.get(id);
    if (pending === undefined) return { ok: false, status: 404, message: `Approval ${id} was not found or has expired.` };
    const refused = this.access.refusal(principal, pending);
    if (refused !== undefined) {
      this.logger.warn({ approval: id, by: principal.subject, verdict }, 'console decision refused');
      return { ok: false, status: 403, message: refused };
    }
    let approval: ApprovalRecord;
    try {
      approval = verdict === 'grant' ? await this.approvals.grant(id, principal.subject) : await this.approvals.reject(id, principal.subject, reason);
    } catch (error) {
      if (!(error instanceof ApprovalError)) throw error;
      return { ok: false, status: error.kind === 'not_found' ? 404 : 409, message: error.message };
    }
    this.logger.info(
      { approval: id, status: approval.status, by: principal.subject, tool: approval.tool, subject: approval.subject },
      'approval decided in the console',
    );
    await this.record(principal, approval, reason);
    return { ok: true, approval };
  }

  /** One audit record per decision: the approver as principal, the held call's tool, the rule that held it. */
  private async record(principal: SessionPrincipal, approval: ApprovalRecord, reason: string): Promise<void> {
    if (this.audit === undefined) return;
    const tool = this.kernel.definitions().find((t) => t.spec.name === approval.tool);
    const entry = {
      time: new Date(this.clock.now()).toISOString(),
      principal: { subject: principal.subject, groups: [...principal.groups], via: principal.via },
      tool: approval.tool,
      decision: {
        effect: 'approval_required' as const,
        ruleId: approval.ruleId,
        reason: approval.reason,
        policyVersion: approval.policyVersion,
        approvalId: approval.id,
      },
      upstream: publicIdentity(tool?.upstream?.identity),
      outcome: { status: 'ok' as const },
      durationMs: 0,
      args: argumentShape(approval.arguments),
      approval: { id: approval.id, status: approval.status as 'granted' | 'rejected', requestedBy: approval.subject, ...(reason !== '' ? { reason } : {}) },
    };
    await this.audit
      .append(entry)
      .catch((error: unknown) => this.logger.error({ err: error, approval: approval.id }, 'audit record of a console decision could not be written'));
  }
}

function argumentShape(json: string): Shape {
  try {
    return shapeOf(JSON.parse(json));
  } catch {
    return 'unavailable';
  }
}
