import { ApprovalError, decisionReason, type ApprovalRecord, type Approver } from './approval-record.js';
import type { ApprovalStore } from './approval-store.js';

/** What became of one approval of a bulk rejection. */
export type BulkOutcome = { id: string; ok: true; approval: ApprovalRecord } | { id: string; ok: false; kind: ApprovalError['kind']; message: string };

export interface BulkRejection {
  /** Whose held calls: every id must be one of this principal's. */
  subject: string;
  /** The approvals to reject, or 'all' for every pending one of the subject's. */
  ids: readonly string[] | 'all';
  /** The authenticated principal rejecting: the store refuses, one by one, the calls that are not theirs to decide. */
  approver: Approver;
  reason: string;
}

/** At most this many approvals in one bulk rejection (MCP_APPROVAL_MAX_PENDING is 20 by default). */
export const MAX_BULK = 500;

/**
 * Rejects several held calls of one principal at once, with one reason (a runaway agent): each one by the
 * same compare-and-set as a single rejection, so one decided meanwhile by someone else, or one the approver may
 * not decide (their own), is reported, not overwritten. The reason is checked first: nothing is rejected without one.
 */
export async function rejectHeldCalls(approvals: ApprovalStore, request: BulkRejection): Promise<BulkOutcome[]> {
  const reason = decisionReason(request.reason, 'rejected')!;
  const ids =
    request.ids === 'all'
      ? (await approvals.list()).filter((a) => a.status === 'pending' && a.subject === request.subject).map((a) => a.id)
      : [...new Set(request.ids)];
  if (ids.length === 0) throw new ApprovalError('not_found', `${request.subject} has no pending approvals.`);
  if (ids.length > MAX_BULK) throw new ApprovalError('invalid', `Reject at most ${MAX_BULK} approvals at once.`);
  const outcomes: BulkOutcome[] = [];
  for (const id of ids) {
    const approval = await approvals.get(id);
    if (approval === undefined) {
      outcomes.push({ id, ok: false, kind: 'not_found', message: `Approval ${id} was not found or has expired.` });
      continue;
    }
    if (approval.subject !== request.subject) {
      outcomes.push({ id, ok: false, kind: 'invalid', message: `Approval ${id} is ${approval.subject}'s, not ${request.subject}'s.` });
      continue;
    }
    try {
      outcomes.push({ id, ok: true, approval: await approvals.reject(id, request.approver, reason) });
    } catch (error) {
      if (!(error instanceof ApprovalError)) throw error;
      outcomes.push({ id, ok: false, kind: error.kind, message: error.message });
    }
  }
  return outcomes;
}
