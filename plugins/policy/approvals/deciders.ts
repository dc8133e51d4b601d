import type { ApprovalRecord, Approver } from './approval-record.js';

/**
 * Who may grant or reject a held call, whatever the path (console, admin endpoint, the CLI through the
 * server): an authenticated member of MCP_APPROVER_GROUPS, and never the principal who asked for the call.
 * The approvals store checks it on every decision, so no path can skip it; the console also asks it first,
 * to draw (or not) the buttons and to say why before anything is posted.
 */
export class Deciders {
  constructor(readonly groups: readonly string[]) {}

  /** From MCP_APPROVER_GROUPS: comma-separated group names. */
  static fromList(value: string): Deciders {
    return new Deciders(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }

  isApprover(approver: Approver): boolean {
    return approver.groups.some((g) => this.groups.includes(g));
  }

  /** Why `approver` may not decide `approval`, or undefined when they may. */
  refusal(approver: Approver, approval: Pick<ApprovalRecord, 'subject'>): string | undefined {
    if (!this.isApprover(approver)) {
      return this.groups.length === 0
        ? 'Nobody may grant or reject calls: MCP_APPROVER_GROUPS is empty.'
        : `Only members of ${this.groups.join(', ')} may grant or reject calls; ${approver.subject} is not.`;
    }
    // Same subject, whichever way they authenticated (tokens, OIDC): one person must not approve their own agent's call.
    if (approval.subject === approver.subject) return `${approver.subject} asked for this call, so another approver must decide it.`;
    return undefined;
  }
}
