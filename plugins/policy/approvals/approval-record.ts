/** What the approvals store keeps of one held call, and what approvers are told when they cannot decide it. */

export type ApprovalStatus = 'pending' | 'granted' | 'rejected' | 'used';

export interface ApprovalRecord {
  id: string;
  status: ApprovalStatus;
  subject: string;
  groups: string[];
  via: string;
  tool: string;
  request?: { method: string; path: string };
  /** The arguments as JSON, cut at 4 KiB: enough for an approver to see what the call does. */
  arguments: string;
  argsHash: string;
  /** The key a retry of this exact call finds the approval by (a hash: who, which tool, which arguments, which policy). */
  binding: string;
  policyVersion: string;
  ruleId: string | null;
  reason: string;
  createdAt: string;
  /** Until when the request may be granted, or, once decided, until when the decision holds. */
  expiresAt: string;
  ttlMs: number;
  decidedBy?: string;
  decidedAt?: string;
  /** Names the single-use token of this grant: only the approver whose decision stands wrote that one. */
  grantKey?: string;
  /** Why the approver decided so (a rejection's reason is told to the caller). */
  decisionReason?: string;
  usedAt?: string;
}

/** A grant or rejection that cannot be made (unknown, expired or already decided). */
export class ApprovalError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'ApprovalError';
  }
}

/** The key of a grant's single-use token (records granted before grant keys existed used the approval id). */
export function grantTokenKey(record: ApprovalRecord): string {
  return record.grantKey === undefined ? record.id : `${record.id}.${record.grantKey}`;
}

/** What an approver who comes too late is told: who decided, and how. */
export function alreadyDecided(record: ApprovalRecord): ApprovalError {
  const how = record.status === 'used' ? 'granted' : record.status;
  const by = record.decidedBy === undefined ? '' : ` by ${record.decidedBy}`;
  const ran = record.status === 'used' ? ', and the call it covers has run' : '';
  return new ApprovalError('conflict', `Approval ${record.id} was already decided: ${how}${by}${ran}.`);
}
