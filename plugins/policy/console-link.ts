/**
 * Where approvers decide, as a held call's message names it: set when this server serves the console (its
 * approvals pages are mounted), with the address browsers reach it at when the server knows it
 * (MCP_CONSOLE_PUBLIC_URL, or the address it listens on). A caller relays the message to a person, who can then
 * open the approval rather than look for the command that grants it.
 */
export class ConsoleLink {
  private served = false;
  private base: string | undefined;

  /** The console is served, at `url` when known. */
  servedAt(url: string | undefined): void {
    this.served = true;
    this.base = url?.replace(/\/+$/, '');
  }

  /** The sentence that sends an approver to approval `id`, or undefined when no console is served. */
  approvalPage(id: string): string | undefined {
    if (!this.served) return undefined;
    return this.base === undefined ? `at /console/approvals/${id} on this server` : `at ${this.base}/console/approvals/${id}`;
  }
}
