import type { CallActing, UpstreamIdentity } from './upstream-types.js';
import { VENDOR_NAMES, isLinkVendor, type LinkVendor } from '../identity/acting-identity.js';

/** The `_meta` key naming who acted upstream on a call (and the audit record's `upstream`). */
export const UPSTREAM_META_KEY = 'mcp-devtools/upstream';

/**
 * Who acted upstream, as callers, audit records and policy rules see it: never the secret's fingerprint. The
 * service credential is its label (`credential`); a person's linked account adds `kind: "user"`, their vendor
 * login and account id, and `account` when the account is not the tool's vendor's own (Atlassian Cloud for Jira).
 */
export interface PublicIdentity {
  vendor: string;
  credential: string;
  host: string;
  environment: string;
  kind?: 'user';
  login?: string;
  accountId?: string;
  account?: LinkVendor;
}

/** The public form of an upstream identity, or of the person acting when the call acts as one. */
export function publicUpstream(identity: UpstreamIdentity | undefined, acting?: CallActing): PublicIdentity | null {
  const user = acting?.identity.kind === 'user' ? acting.identity : undefined;
  const used = user !== undefined && acting?.binding !== undefined ? acting.binding.identity : identity;
  if (used === undefined) return null;
  const base: PublicIdentity = { vendor: used.vendor, credential: used.credential, host: used.host, environment: used.environment };
  if (user === undefined) return base;
  return {
    kind: 'user',
    ...base,
    login: user.login,
    ...(user.accountId === undefined ? {} : { accountId: user.accountId }),
    ...(user.vendor === used.vendor ? {} : { account: user.vendor }),
  };
}

/**
 * What an approval card, a webhook event and the console say of who acts: "acts as alice on GitHub" for a
 * person's linked account, "acts as GITHUB_TOKEN (production)" for the service credential.
 */
export function actsAs(identity: PublicIdentity): string {
  if (identity.kind === 'user') {
    const account = identity.account ?? identity.vendor;
    return `acts as ${identity.login ?? identity.credential} on ${isLinkVendor(account) ? VENDOR_NAMES[account] : account}`;
  }
  return `acts as ${identity.credential} (${identity.environment})`;
}
