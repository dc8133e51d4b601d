import type { LinkVendor } from '../../core/identity/acting-identity.js';
import type { KernelView } from '../../core/plugin/contributions.js';
import type { AccountLinking } from './account-linking.js';

/** What the identity plugin provides besides TOKENS.LinkedAccounts: linking, for its routes, console page and CLI. */
export const IDENTITY_TOKENS = {
  /** The AccountLinking of this server (provided with a vault key). */
  Linking: 'mcp-devtools/identity:Linking',
  /** Where people link (LinkPlaces): the console page's address once the console is mounted. */
  Places: 'mcp-devtools/identity:Places',
} as const;

/**
 * Where a person links, for the sentence that tells them to: the "Connected accounts" page when the console runs
 * (its factory sets `consoleUrl`), else the CLI command of a local server.
 */
export class LinkPlaces {
  consoleUrl: string | undefined;

  /** The end of the sentence: ` at https://mcp.acme.com/console/accounts` or ` with mcp-devtools accounts connect github`. */
  where(vendor: LinkVendor): string {
    const page = this.page();
    if (page !== undefined) return ` at ${page}`;
    return ` with mcp-devtools accounts connect ${vendor}`;
  }

  /** The Connected accounts page, when the console runs where browsers reach it. */
  page(): string | undefined {
    return this.consoleUrl === undefined ? undefined : `${this.consoleUrl.replace(/\/+$/, '')}/console/accounts`;
  }
}

/** The vendor plugins' credential-mode settings (declared by them, read here by key). */
export const CREDENTIAL_SETTINGS = ['GITHUB_CREDENTIALS', 'JIRA_CREDENTIALS', 'CONFLUENCE_CREDENTIALS', 'BITBUCKET_CREDENTIALS', 'CIRCLECI_CREDENTIALS'];

/** The server's linking, or undefined when it has no vault (its routes, page and commands then say so). */
export function linkingOf(kernel: Pick<KernelView, 'resolve'>): AccountLinking | undefined {
  try {
    return kernel.resolve<AccountLinking>(IDENTITY_TOKENS.Linking);
  } catch {
    return undefined;
  }
}
