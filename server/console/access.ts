import { Deciders, type ApprovalRecord } from '../../plugins/policy/index.js';

export interface SessionPrincipal {
  subject: string;
  groups: readonly string[];
  via: string;
}

/**
 * Who may read the console (MCP_CONSOLE_VIEWER_GROUPS, and approvers) and who may decide in it: the approvals
 * store's own rule (MCP_APPROVER_GROUPS, never one's own call), which the store checks again on every decision.
 */
export class ConsoleAccess {
  private readonly viewerGroups: readonly string[];

  /** `viewers`: MCP_CONSOLE_VIEWER_GROUPS, comma-separated. */
  constructor(
    private readonly deciders: Deciders,
    viewers: string,
  ) {
    this.viewerGroups = viewers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  static fromLists(approvers: string, viewers: string): ConsoleAccess {
    return new ConsoleAccess(Deciders.fromList(approvers), viewers);
  }

  get approverGroups(): readonly string[] {
    return this.deciders.groups;
  }

  isApprover(principal: SessionPrincipal): boolean {
    return this.deciders.isApprover(principal);
  }

  mayView(principal: SessionPrincipal): boolean {
    return this.viewerGroups.length === 0 || this.isApprover(principal) || principal.groups.some((g) => this.viewerGroups.includes(g));
  }

  /** Why `principal` may not decide `approval`, or undefined when it may: drawn on the page, and checked again by the store on every POST. */
  refusal(principal: SessionPrincipal, approval: Pick<ApprovalRecord, 'subject'>): string | undefined {
    return this.deciders.refusal(principal, approval);
  }
}
