import { shapeOf, type AuditRecord, type Shape } from '../audit/audit-record.js';
import type { ApprovalRecord, Approver } from './approval-record.js';

/**
 * The audit record of an approver's decision, whichever way it was made (console, admin endpoint, CLI): the
 * approver as principal, the held call's tool, the rule that held it, the upstream identity that would act,
 * and the decision itself with its reason and the request it covers. Like every record, the arguments are
 * their shape only.
 */
export function decisionAuditEntry(approval: ApprovalRecord, approver: Approver, time: string): Omit<AuditRecord, 'seq' | 'prev' | 'hash'> {
  return {
    time,
    principal: { subject: approver.subject, groups: [...approver.groups], via: approver.via },
    tool: approval.tool,
    decision: {
      effect: 'approval_required',
      ruleId: approval.ruleId,
      reason: approval.reason,
      policyVersion: approval.policyVersion,
      approvalId: approval.id,
    },
    upstream: approval.identity ?? null,
    outcome: { status: 'ok' },
    durationMs: 0,
    args: argumentShape(approval.arguments),
    approval: {
      id: approval.id,
      status: approval.status === 'rejected' ? 'rejected' : 'granted',
      requestedBy: approval.subject,
      ...(approval.decisionReason === undefined ? {} : { reason: approval.decisionReason }),
      ...(approval.request === undefined ? {} : { request: approval.request }),
      expiresAt: approval.expiresAt,
    },
  };
}

function argumentShape(json: string): Shape {
  try {
    return shapeOf(JSON.parse(json));
  } catch {
    return 'unavailable';
  }
}
