import type { LinkVendor, UserIdentity } from '../../core/identity/acting-identity.js';
import type { LinkedAccountFacts, LinkedAccountSummary, LinkedCredential } from '../../core/identity/linked-accounts.js';
import { SecretText } from '../../core/identity/secret-text.js';
import type { SealedSecrets } from './sealed-box.js';

/** Store namespace of the linked accounts and of the vault's catalogue. */
export const VAULT_NAMESPACE = 'identity-vault';

/** A link unused this long is forgotten (MCP_VAULT_IDLE_DAYS): the store's TTL of a record, renewed on use. */
export const DEFAULT_IDLE_MS = 90 * 86_400_000;
/** The catalogue outlives the records it lists by this factor of their idle time. */
export const CATALOGUE_TTL_FACTOR = 4;

/** The secrets of a link, in memory. */
export interface LinkTokens {
  readonly accessToken: SecretText;
  readonly refreshToken?: SecretText;
}

/** What a linking flow hands the vault to keep. */
export interface NewLink extends LinkedAccountFacts {
  readonly tokens: LinkTokens;
  readonly refreshExpiresAt?: number;
}

/** What a refresh gives back; a missing refresh token means the old one stays valid (non-rotating vendors). */
export interface RenewedTokens {
  readonly accessToken: SecretText;
  readonly refreshToken?: SecretText;
  readonly expiresAt?: number;
  readonly refreshExpiresAt?: number;
  readonly scopes?: readonly string[];
}

/**
 * A link as the store holds it. Everything but `sealed` is in clear (who, which account, when): the console
 * lists links without opening them. Absent values are null, never undefined, so that a record read back is
 * deep-equal to the one written (compare-and-set compares them).
 */
export interface StoredLink {
  v: 1;
  principal: string;
  vendor: LinkVendor;
  sealed: SealedSecrets;
  login: string;
  accountId: string | null;
  siteId: string | null;
  siteUrl: string | null;
  scopes: string[];
  expiresAt: number | null;
  refreshExpiresAt: number | null;
  hasRefreshToken: boolean;
  createdAt: number;
  lastUsedAt: number;
  refreshedAt: number | null;
  stale: { reason: string; at: number } | null;
  /** A replica renewing the token: others wait for it instead of spending the refresh token too. */
  lease: { holder: string; until: number } | null;
}

/** The store key of one principal's link to one vendor. */
export function linkKey(principal: string, vendor: LinkVendor): string {
  return `link:${vendor}:${encodeURIComponent(principal)}`;
}

/** Authenticated with the sealed secrets: a record moved under another principal or vendor does not open. */
export function sealContext(principal: string, vendor: LinkVendor): string {
  return `mcp-devtools vault v1\u0000${vendor}\u0000${principal}`;
}

export function tokensToJson(tokens: LinkTokens): string {
  return JSON.stringify({ a: tokens.accessToken.reveal(), r: tokens.refreshToken?.reveal() ?? null });
}

export function tokensFromJson(text: string): LinkTokens {
  const parsed = JSON.parse(text) as { a: string; r: string | null };
  return { accessToken: new SecretText(parsed.a), refreshToken: parsed.r === null ? undefined : new SecretText(parsed.r) };
}

export function identityOf(record: StoredLink): UserIdentity {
  return record.accountId === null
    ? { kind: 'user', vendor: record.vendor, login: record.login }
    : { kind: 'user', vendor: record.vendor, login: record.login, accountId: record.accountId };
}

export function credentialOf(record: StoredLink, tokens: LinkTokens): LinkedCredential {
  return {
    vendor: record.vendor,
    identity: identityOf(record),
    accessToken: tokens.accessToken,
    scopes: [...record.scopes],
    ...(record.siteId === null ? {} : { siteId: record.siteId }),
    ...(record.siteUrl === null ? {} : { siteUrl: record.siteUrl }),
    ...(record.expiresAt === null ? {} : { expiresAt: record.expiresAt }),
  };
}

export function summaryOf(record: StoredLink): LinkedAccountSummary {
  return {
    vendor: record.vendor,
    login: record.login,
    scopes: [...record.scopes],
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    ...(record.accountId === null ? {} : { accountId: record.accountId }),
    ...(record.siteId === null ? {} : { siteId: record.siteId }),
    ...(record.siteUrl === null ? {} : { siteUrl: record.siteUrl }),
    ...(record.expiresAt === null ? {} : { expiresAt: record.expiresAt }),
    ...(record.stale === null ? {} : { stale: { ...record.stale } }),
  };
}
