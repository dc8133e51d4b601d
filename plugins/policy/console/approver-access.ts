import type { Principal } from '../../../core/identity/principal.js';
import type { ApprovalRecord } from '../approvals/approval-store.js';
import { Deciders } from '../approvals/deciders.js';

/**
 * Who may decide in the console: the approvals store's own rule (MCP_APPROVER_GROUPS, never one's own call), which
 * the store checks again on every decision, so the pages draw what the store will enforce. An approver's role in
 * the console is `approver`; they may always sign in to it.
 */
export class ApproverAccess {
  constructor(private readonly deciders: Deciders) {}

  /** `approvers`: MCP_APPROVER_GROUPS, comma-separated. */
  static fromList(approvers: string): ApproverAccess {
    return new ApproverAccess(Deciders.fromList(approvers));
  }

  get approverGroups(): readonly string[] {
    return this.deciders.groups;
  }

  isApprover(principal: Principal): boolean {
    return this.deciders.isApprover(principal);
  }

  /** The console role (`approver`) of a person who may decide; undefined for anyone else. */
  roleOf(principal: Principal): string | undefined {
    return this.isApprover(principal) ? 'approver' : undefined;
  }

  /** Why `principal` may not decide `approval`, or undefined when it may: drawn on the page, and checked again by the store on every POST. */
  refusal(principal: Principal, approval: Pick<ApprovalRecord, 'subject'>): string | undefined {
    return this.deciders.refusal(principal, approval);
  }
}
