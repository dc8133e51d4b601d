import type { Logger } from '../../../core/logging/logger.js';
import { ApprovalError, type ApprovalRecord, type ApprovalStore } from '../approvals/approval-store.js';
import { approvalErrorStatus } from '../approvals/approval-record.js';
import { rejectHeldCalls, type BulkOutcome } from '../approvals/bulk-reject.js';
import type { Principal } from '../../../core/identity/principal.js';
import type { ApproverAccess } from './approver-access.js';

export type Verdict = 'grant' | 'reject';
export type DecisionOutcome = { ok: true; approval: ApprovalRecord } | { ok: false; status: number; message: string };
export type BulkDecision = { ok: true; outcomes: BulkOutcome[] } | { ok: false; status: number; message: string };

export const APPROVAL_ID = /^apr-[0-9a-f]{24}$/;

/**
 * An approver's grant or rejection, made only after the server checks it (the page's buttons are a
 * convenience, never the control): the approvals store decides only for an approver who is not the caller, a
 * pending approval, with a reason for a rejection, and records it in the audit log and tells webhook receivers.
 */
export class Decisions {
  constructor(
    private readonly approvals: ApprovalStore,
    private readonly access: ApproverAccess,
    private readonly logger: Logger,
  ) {}

  async decide(principal: Principal, id: string, verdict: Verdict, reason: string): Promise<DecisionOutcome> {
    if (!APPROVAL_ID.test(id)) return { ok: false, status: 404, message: `There is no approval ${id}.` };
    let approval: ApprovalRecord;
    try {
      approval = verdict === 'grant' ? await this.approvals.grant(id, principal, reason) : await this.approvals.reject(id, principal, reason);
    } catch (error) {
      if (!(error instanceof ApprovalError)) throw error;
      if (error.kind === 'forbidden') this.logger.warn({ approval: id, by: principal.subject, verdict }, 'console decision refused');
      return { ok: false, status: approvalErrorStatus(error), message: error.message };
    }
    this.logger.info(
      { approval: id, status: approval.status, by: principal.subject, tool: approval.tool, subject: approval.subject },
      'approval decided in the console',
    );
    return { ok: true, approval };
  }

  /** Several of one caller's held calls rejected with one reason, each checked and decided on its own. */
  async rejectSeveral(principal: Principal, subject: string, ids: readonly string[], reason: string): Promise<BulkDecision> {
    if (!this.access.isApprover(principal)) return { ok: false, status: 403, message: this.access.refusal(principal, { subject })! };
    if (ids.length === 0) return { ok: false, status: 400, message: 'Choose at least one held call to reject.' };
    if (!ids.every((id) => APPROVAL_ID.test(id))) return { ok: false, status: 404, message: 'One of the approvals named does not exist.' };
    let outcomes: BulkOutcome[];
    try {
      outcomes = await rejectHeldCalls(this.approvals, { subject, ids, approver: principal, reason });
    } catch (error) {
      if (!(error instanceof ApprovalError)) throw error;
      return { ok: false, status: approvalErrorStatus(error), message: error.message };
    }
    this.logger.info(
      { subject, rejected: outcomes.filter((o) => o.ok).length, of: outcomes.length, by: principal.subject },
      'approvals rejected in bulk in the console',
    );
    return { ok: true, outcomes };
  }
}
