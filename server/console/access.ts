import type { Principal } from '../../core/identity/principal.js';

/**
 * Who may sign in to the console: members of MCP_CONSOLE_VIEWER_GROUPS (everyone authenticated when it is empty),
 * and whoever a plugin's pages give a role (the policy plugin's approvers). The role is shown beside their name;
 * anyone else signed in is a `viewer`.
 */
export class ConsoleAccess {
  private readonly viewerGroups: readonly string[];

  /** `viewers`: MCP_CONSOLE_VIEWER_GROUPS, comma-separated; `roles`: what the contributed pages say of a person, in order. */
  constructor(
    viewers: string,
    private readonly roles: ReadonlyArray<(person: Principal) => string | undefined>,
  ) {
    this.viewerGroups = viewers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /** The role the first page that gives one gives, or undefined. */
  roleOf(person: Principal): string | undefined {
    for (const role of this.roles) {
      const found = role(person);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  mayView(person: Principal): boolean {
    return this.viewerGroups.length === 0 || this.roleOf(person) !== undefined || person.groups.some((g) => this.viewerGroups.includes(g));
  }
}
