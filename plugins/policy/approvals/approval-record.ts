import type { PublicIdentity } from '../engine/call-facts.js';

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
  /**
   * The arguments as JSON (always valid JSON), as approvers see them: the values the call will send, except
   * what a rule or MCP_APPROVAL_REDACT marks redacted and anything secret, each `[REDACTED]` (argument-preview.ts).
   */
  arguments: string;
  /** The argument paths whose values were hidden from approvers (absent on records made before redaction). */
  redacted?: string[];
  /**
   * The free-form maps the call fills (`parameters`): approvers see their values, webhook receivers their names
   * only (approval-event.ts). Absent when there are none.
   */
  withheld?: string[];
  /** The upstream identity that will act if the call is granted (credential label, host, environment). */
  identity?: PublicIdentity | null;
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
  /** Why the approver decided so (required to reject; told to the caller either way). */
  decisionReason?: string;
  usedAt?: string;
}

/** A grant or rejection that cannot be made (unknown, expired or already decided, not this approver's to make, or without a reason it needs). */
export class ApprovalError extends Error {
  constructor(
    /** forbidden: this approver may not decide this call (not in MCP_APPROVER_GROUPS, or it is their own). */
    readonly kind: 'not_found' | 'conflict' | 'invalid' | 'forbidden',
    message: string,
  ) {
    super(message);
    this.name = 'ApprovalError';
  }
}

/** The HTTP status a decision refused so is answered with (the admin endpoint, the console). */
export function approvalErrorStatus(error: ApprovalError): number {
  return { not_found: 404, invalid: 400, forbidden: 403, conflict: 409 }[error.kind];
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

/**
 * Who decides: the principal the server authenticated (console sign-in, or the bearer token of an admin
 * endpoint request, which the CLI sends), never a name typed in.
 */
export interface Approver {
  subject: string;
  groups: readonly string[];
  /** How the server authenticated them: tokens or oidc. */
  via: string;
}

export const MAX_REASON_CHARS = 500;

/**
 * An approver's reason as it is kept: whitespace collapsed, at most MAX_REASON_CHARS. A rejection needs one (it
 * is what the caller is told); a grant may have one. Throws an `invalid` ApprovalError saying what to fix.
 */
export function decisionReason(raw: string | undefined, verdict: 'granted' | 'rejected'): string | undefined {
  const reason = (raw ?? '').trim().replace(/\s+/g, ' ');
  if (reason.length > MAX_REASON_CHARS) throw new ApprovalError('invalid', `Keep the reason under ${MAX_REASON_CHARS} characters.`);
  if (reason === '' && verdict === 'rejected') throw new ApprovalError('invalid', 'Say why you reject the call: the reason is told to the caller.');
  return reason === '' ? undefined : reason;
}
