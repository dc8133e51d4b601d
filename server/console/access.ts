import type { ApprovalRecord } from '../../plugins/policy/index.js';

export interface SessionPrincipal {
  subject: string;
  groups: readonly string[];
  via: string;
}

/** Who may read the console and who may decide in it, from MCP_APPROVER_GROUPS and MCP_CONSOLE_VIEWER_GROUPS. */
export class ConsoleAccess {
  constructor(
    readonly approverGroups: readonly string[],
    private readonly viewerGroups: readonly string[],
  ) {}

  static fromLists(approvers: string, viewers: string): ConsoleAccess {
    return new ConsoleAccess(list(approvers), list(viewers));
  }

  isApprover(principal: SessionPrincipal): boolean {
    return principal.groups.some((g) => this.approverGroups.includes(g));
  }

  mayView(principal: SessionPrincipal): boolean {
    return this.viewerGroups.length === 0 || this.isApprover(principal) || principal.groups.some((g) => this.viewerGroups.includes(g));
  }

  /** Why `principal` may not decide `approval`, or undefined when it may. Checked on every POST, not only when drawing buttons. */
  refusal(principal: SessionPrincipal, approval: Pick<ApprovalRecord, 'subject'>): string | undefined {
    if (!this.isApprover(principal)) {
      return this.approverGroups.length === 0
        ? 'Nobody decides in this console: MCP_APPROVER_GROUPS is empty.'
        : `Only members of ${this.approverGroups.join(', ')} may grant or reject calls; ${principal.subject} is not.`;
    }
    // Same subject, whichever way it signed in: one person must not approve their own agent's call.
    if (approval.subject === principal.subject) return `${principal.subject} asked for this call, so another approver must decide it.`;
    return undefined;
  }
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
