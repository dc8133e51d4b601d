import { VENDOR_NAMES, type LinkVendor } from './acting-identity.js';

/**
 * What went wrong with a linked account or a link attempt. Each has one sentence that tells the person what to
 * do; none ever carries a token, a refresh token, a code or a PKCE verifier (only the vendor's OAuth error
 * code, which is a fixed word such as `invalid_grant`).
 */
export const LINK_PROBLEMS = {
  not_linked: { retryable: false, say: (v: string) => `You have not linked your ${v} account yet; link it` },
  link_expired: { retryable: false, say: (v: string) => `Your linked ${v} account's token has expired and cannot be renewed; link your account again` },
  link_stale: { retryable: false, say: (v: string) => `${v} no longer accepts your linked account; link your account again` },
  refresh_refused: { retryable: false, say: (v: string) => `${v} refused to renew your linked account's token; link your account again` },
  refresh_failed: { retryable: true, say: (v: string) => `${v} could not renew your linked account's token just now; try again in a moment` },
  sealed_with_other_key: {
    retryable: false,
    say: (v: string) => `Your linked ${v} account was sealed with another vault key than this server's MCP_VAULT_KEY; link your account again`,
  },
  unreadable: {
    retryable: false,
    say: (v: string) => `Your linked ${v} account's record was changed or damaged in the store and cannot be used; link your account again`,
  },
  state_unknown: { retryable: false, say: (v: string) => `This ${v} link attempt is unknown or has expired; start linking again` },
  state_replayed: { retryable: false, say: (v: string) => `This ${v} link attempt was already used; start linking again if your account is not linked` },
  state_other_principal: {
    retryable: false,
    say: (v: string) => `This ${v} link attempt was started by someone else or in another session; start linking from your own session`,
  },
  code_refused: { retryable: false, say: (v: string) => `${v} refused the authorization code of this link attempt; start linking again` },
  site_not_granted: {
    retryable: false,
    say: (v: string) => `Your ${v} consent did not include the site this server acts on; link again and choose that site on the consent screen`,
  },
  authorization_pending: { retryable: true, say: (v: string) => `${v} is still waiting for you to enter the code; finish there, then try again` },
  token_refused: { retryable: false, say: (v: string) => `${v} refused the personal access token; check it and enter it again` },
  vendor_unreachable: { retryable: true, say: (v: string) => `${v} could not be reached or answered unexpectedly; try again in a moment` },
  not_configured: { retryable: false, say: (v: string) => `Linking ${v} accounts is not set up on this server; ask its operator` },
} as const;

export type LinkProblem = keyof typeof LINK_PROBLEMS;

export interface LinkErrorDetails {
  /** The vendor's OAuth error code (`invalid_grant`) or HTTP status, shown in parentheses; never a secret. */
  vendorError?: string;
  /** Where the person links (a console URL, a CLI command), appended to the sentence. */
  where?: string;
  /** What the operator must set, for `not_configured`. */
  settings?: string;
}

const OAUTH_ERROR = /^[A-Za-z0-9_.-]{1,64}$/;

/** A linked account cannot be used, or a link attempt failed: `problem` says which, the message what to do. */
export class LinkError extends Error {
  readonly problem: LinkProblem;
  readonly vendor: LinkVendor;

  constructor(problem: LinkProblem, vendor: LinkVendor, details: LinkErrorDetails = {}) {
    super(sentence(problem, vendor, details));
    this.name = 'LinkError';
    this.problem = problem;
    this.vendor = vendor;
  }

  /** Whether the same request can succeed later without the person doing anything. */
  get retryable(): boolean {
    return LINK_PROBLEMS[this.problem].retryable;
  }
}

function sentence(problem: LinkProblem, vendor: LinkVendor, details: LinkErrorDetails): string {
  let text = LINK_PROBLEMS[problem].say(VENDOR_NAMES[vendor]);
  // Only a short word is shown: an error description could echo what was sent.
  if (details.vendorError !== undefined && OAUTH_ERROR.test(details.vendorError)) text += ` (${details.vendorError})`;
  if (details.settings !== undefined) text += ` (${details.settings})`;
  if (details.where !== undefined && details.where !== '') text += ` at ${details.where}`;
  return `${text}.`;
}
