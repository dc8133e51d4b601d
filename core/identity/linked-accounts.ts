import type { LinkVendor, UserIdentity } from './acting-identity.js';
import type { SecretText } from './secret-text.js';

/** A linked account ready to call with: what a vendor plugin sends, and who it acts as. */
export interface LinkedCredential {
  readonly vendor: LinkVendor;
  readonly identity: UserIdentity;
  /** The bearer token to send (PATs included); `reveal()` it only into the request's header. */
  readonly accessToken: SecretText;
  /** Atlassian Cloud: the site's cloud id, for https://api.atlassian.com/ex/jira/{cloudId}/... */
  readonly siteId?: string;
  /** Atlassian Cloud: the site's own URL (https://acme.atlassian.net); Data Center: the base URL linked to. */
  readonly siteUrl?: string;
  readonly scopes: readonly string[];
  /** Epoch ms the access token expires at; undefined when it does not expire (PATs, OAuth App tokens). */
  readonly expiresAt?: number;
}

/** Whose account a link is, learnt from the vendor when it was made. */
export interface LinkedAccountFacts {
  /** The vendor's login or e-mail (`alice`, `alice@acme.com`). */
  readonly login: string;
  readonly accountId?: string;
  readonly siteId?: string;
  readonly siteUrl?: string;
  readonly scopes: readonly string[];
  /** Epoch ms the access token expires at; absent when it does not expire. */
  readonly expiresAt?: number;
}

/**
 * What a linked account looks like without its secrets: the "Connected accounts" page and
 * `accounts list` show this.
 */
export interface LinkedAccountSummary extends LinkedAccountFacts {
  readonly vendor: LinkVendor;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  /** Set when the vendor refused the link (a refused refresh, a 401): the person must link again. */
  readonly stale?: { readonly reason: string; readonly at: number };
}

/**
 * The vault as a call sees it: the one read a vendor plugin makes at call time, and the one report it makes
 * back. Implemented by the identity plugin's TokenVault; core holds only this contract so vendors need
 * nothing else.
 */
export interface LinkedAccounts {
  /**
   * The principal's credential for `vendor`, renewed first (once across every replica) when it expires within
   * a minute. Undefined when the principal has not linked that vendor. Rejects with a LinkError when the link
   * cannot be used (stale, refused refresh, sealed with another key) or a StoreError when the store fails.
   */
  credential(principal: string, vendor: LinkVendor): Promise<LinkedCredential | undefined>;
  /** The vendor answered 401 to this credential: the link is marked stale, so the person is told to link again. */
  markStale(principal: string, vendor: LinkVendor, reason: string): Promise<void>;
}
