import { randomBytes } from 'node:crypto';
import { LINK_VENDORS, type LinkVendor } from '../../core/identity/acting-identity.js';
import { LinkError } from '../../core/identity/link-error.js';
import type { LinkedAccountSummary, LinkedAccounts, LinkedCredential } from '../../core/identity/linked-accounts.js';
import { systemClock, type Clock, type KeyValueStore } from '../../core/store/key-value-store.js';
import { TokenRenewal, type Refresher } from './token-renewal.js';
import { open, seal } from './sealed-box.js';
import { VaultCatalogue } from './vault-catalogue.js';
import type { VaultKey } from './vault-key.js';
import {
  CATALOGUE_TTL_FACTOR,
  credentialOf,
  DEFAULT_IDLE_MS,
  linkKey,
  sealContext,
  summaryOf,
  tokensFromJson,
  tokensToJson,
  VAULT_NAMESPACE,
  type LinkTokens,
  type NewLink,
  type StoredLink,
} from './vault-record.js';

export interface TokenVaultOptions {
  store: KeyValueStore;
  key: VaultKey;
  /** How each vendor renews a token with its refresh token (the linking flows' `refresh`). */
  refreshers?: Partial<Record<LinkVendor, Refresher>>;
  clock?: Clock;
  /** A link unused this long is forgotten (the store's TTL, renewed on use). Default 90 days. */
  idleMs?: number;
  /** A token expiring within this is renewed before it is handed out. Default 60 s. */
  renewBeforeMs?: number;
  /** Longest a renewal may hold its lease (the vendor's answer included). Default 30 s. */
  leaseMs?: number;
}

/** lastUsedAt is written at most this often per link: a call is not a store write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The linked accounts of every principal, encrypted at rest in the shared store (memory, SQLite or Redis), so
 * every replica and worker sees the same links. Each record's secrets are sealed under a data key of its own,
 * wrapped by the vault key (sealed-box.ts); the rest of the record is in clear for listing. A token about to
 * expire is renewed once across all replicas (token-renewal.ts). `open` refuses a key that did not seal the
 * records already there, before writing anything.
 */
export class TokenVault implements LinkedAccounts {
  private readonly clock: Clock;
  private readonly idleMs: number;
  private readonly renewal: TokenRenewal;

  private constructor(
    private readonly store: KeyValueStore,
    private readonly key: VaultKey,
    private readonly catalogue: VaultCatalogue,
    options: TokenVaultOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.renewal = new TokenRenewal({
      store,
      clock: this.clock,
      refreshers: options.refreshers ?? {},
      renewBeforeMs: options.renewBeforeMs ?? 60_000,
      leaseMs: options.leaseMs ?? 30_000,
      ttlMs: this.idleMs,
      holder: randomBytes(8).toString('hex'),
      unseal: (record) => this.unseal(record),
      reseal: (record, tokens) => seal(tokensToJson(tokens), this.key, sealContext(record.principal, record.vendor)),
    });
  }

  /** Opens the vault on `store` with `key`; rejects with a StartupError (one sentence) when another key sealed its records. */
  static async open(options: TokenVaultOptions): Promise<TokenVault> {
    const catalogue = new VaultCatalogue(options.store, (options.idleMs ?? DEFAULT_IDLE_MS) * CATALOGUE_TTL_FACTOR);
    await catalogue.claim(options.key);
    return new TokenVault(options.store, options.key, catalogue, options);
  }

  /** Keeps a new link (replacing the principal's earlier link to the vendor); returns what the person sees of it. */
  async save(principal: string, vendor: LinkVendor, link: NewLink): Promise<LinkedAccountSummary> {
    const now = this.clock.now();
    const record: StoredLink = {
      v: 1,
      principal,
      vendor,
      sealed: seal(tokensToJson(link.tokens), this.key, sealContext(principal, vendor)),
      login: link.login,
      accountId: link.accountId ?? null,
      siteId: link.siteId ?? null,
      siteUrl: link.siteUrl ?? null,
      scopes: [...link.scopes],
      expiresAt: link.expiresAt ?? null,
      refreshExpiresAt: link.refreshExpiresAt ?? null,
      hasRefreshToken: link.tokens.refreshToken !== undefined,
      createdAt: now,
      lastUsedAt: now,
      refreshedAt: null,
      stale: null,
      lease: null,
    };
    await this.store.set(VAULT_NAMESPACE, linkKey(principal, vendor), record, this.idleMs);
    await this.catalogue.add(linkKey(principal, vendor), this.key);
    return summaryOf(record);
  }

  async credential(principal: string, vendor: LinkVendor): Promise<LinkedCredential | undefined> {
    const record = await this.read(principal, vendor);
    if (record === undefined) return undefined;
    const usable = await this.renewal.usable(record);
    if (usable === undefined) return undefined;
    const tokens = this.unseal(usable);
    void this.touch(usable).catch(() => {});
    return credentialOf(usable, tokens);
  }

  async markStale(principal: string, vendor: LinkVendor, reason: string): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const record = await this.read(principal, vendor);
      if (record === undefined || record.stale !== null) return;
      const next: StoredLink = { ...record, stale: { reason: reason.slice(0, 200), at: this.clock.now() } };
      if (await this.store.replaceIf(VAULT_NAMESPACE, linkKey(principal, vendor), record, next, this.idleMs)) return;
    }
  }

  /** The principal's links, without their secrets (stale ones included, marked). */
  async accounts(principal: string): Promise<LinkedAccountSummary[]> {
    const records = await Promise.all(LINK_VENDORS.map((vendor) => this.read(principal, vendor)));
    return records.filter((r): r is StoredLink => r !== undefined).map(summaryOf);
  }

  /**
   * Forgets the link and gives back its tokens, so the caller can revoke them at the vendor; undefined when
   * there was none. Of two disconnects at once, one gets the tokens.
   */
  async remove(principal: string, vendor: LinkVendor): Promise<LinkTokens | undefined> {
    const record = await this.store.take<StoredLink>(VAULT_NAMESPACE, linkKey(principal, vendor));
    await this.catalogue.remove(linkKey(principal, vendor), this.key);
    if (record === undefined) return undefined;
    try {
      return this.unseal(record);
    } catch {
      return undefined; // sealed with another key: nothing to revoke with, and the record is gone anyway
    }
  }

  /** The record under this principal's key; one that names another principal or vendor was moved there, and is refused. */
  private async read(principal: string, vendor: LinkVendor): Promise<StoredLink | undefined> {
    const record = await this.store.get<StoredLink>(VAULT_NAMESPACE, linkKey(principal, vendor));
    if (record !== undefined && (record.principal !== principal || record.vendor !== vendor)) throw new LinkError('unreadable', vendor);
    return record;
  }

  /** The sealed secrets are authenticated with the record's principal and vendor, which `read` checked. */
  private unseal(record: StoredLink): LinkTokens {
    if (record.sealed.kid !== this.key.id) throw new LinkError('sealed_with_other_key', record.vendor);
    const text = open(record.sealed, this.key, sealContext(record.principal, record.vendor));
    if (text === undefined) throw new LinkError('unreadable', record.vendor);
    return tokensFromJson(text);
  }

  /** Records the use (at most once a minute per link), which also keeps an active link from expiring. */
  private async touch(record: StoredLink): Promise<void> {
    const now = this.clock.now();
    if (now - record.lastUsedAt < TOUCH_EVERY_MS) return;
    await this.store.replaceIf(VAULT_NAMESPACE, linkKey(record.principal, record.vendor), record, { ...record, lastUsedAt: now }, this.idleMs);
  }
}
