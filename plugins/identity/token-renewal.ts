import type { LinkVendor } from '../../core/identity/acting-identity.js';
import { LinkError } from '../../core/identity/link-error.js';
import type { SecretText } from '../../core/identity/secret-text.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import type { SealedSecrets } from './sealed-box.js';
import { renewalRateLimit } from './flows/renewal-limits.js';
import { linkKey, VAULT_NAMESPACE, type LinkTokens, type RenewedTokens, type StoredLink } from './vault-record.js';

/**
 * Renews a token with its refresh token at the vendor. Rejects with LinkError `refresh_refused` when the vendor
 * refuses the refresh token (the link is then stale), any other error when it could not be asked.
 */
export type Refresher = (refreshToken: SecretText, signal: AbortSignal) => Promise<RenewedTokens>;

export interface RenewalOptions {
  store: KeyValueStore;
  clock: Clock;
  refreshers: Partial<Record<LinkVendor, Refresher>>;
  renewBeforeMs: number;
  leaseMs: number;
  ttlMs: number;
  /** This vault instance, as named in the leases it takes. */
  holder: string;
  unseal(record: StoredLink): LinkTokens;
  reseal(record: StoredLink, tokens: LinkTokens): SealedSecrets;
}

/** Pause between two looks at a record another replica is renewing. */
const POLL_MS = 40;
const WRITE_ATTEMPTS = 4;

/**
 * Single-flight renewal across replicas. A rotating refresh token spent twice logs the person out (the vendor
 * revokes the grant), so exactly one renewal may run per link at a time, whichever replica or worker needs it.
 * The lease is a field of the record itself, taken by compare-and-set on the record as read: of replicas racing
 * for one record, one writes its lease and the others' swaps fail. The holder asks the vendor and writes the new
 * tokens with the lease cleared, again by compare-and-set; the others poll the record until the lease is gone
 * and use what the holder wrote. A lease not released within `leaseMs` (its holder died) may be taken over: the
 * holder stops waiting for the vendor before then. In one process, concurrent reads share one renewal.
 */
export class TokenRenewal {
  private readonly inFlight = new Map<string, Promise<StoredLink | undefined>>();

  constructor(private readonly options: RenewalOptions) {}

  /** The record with a token that is not about to expire, renewed first if need be; undefined if it was removed meanwhile. */
  async usable(record: StoredLink): Promise<StoredLink | undefined> {
    if (record.stale !== null) throw new LinkError('link_stale', record.vendor);
    if (!this.due(record)) return record;
    if (!record.hasRefreshToken || this.options.refreshers[record.vendor] === undefined) {
      if (record.expiresAt! <= this.options.clock.now()) throw new LinkError('link_expired', record.vendor);
      return record;
    }
    const key = linkKey(record.principal, record.vendor);
    let renewal = this.inFlight.get(key);
    if (renewal === undefined) {
      renewal = this.renew(record.principal, record.vendor).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, renewal);
    }
    return renewal;
  }

  private due(record: StoredLink): boolean {
    return record.expiresAt !== null && record.expiresAt - this.options.clock.now() <= this.options.renewBeforeMs;
  }

  private async renew(principal: string, vendor: LinkVendor): Promise<StoredLink | undefined> {
    const { store, clock, leaseMs, ttlMs, holder } = this.options;
    const key = linkKey(principal, vendor);
    const giveUpAt = clock.now() + 2 * leaseMs;
    for (;;) {
      const record = await store.get<StoredLink>(VAULT_NAMESPACE, key);
      if (record === undefined) return undefined;
      if (record.stale !== null) throw new LinkError('link_stale', vendor);
      if (!this.due(record)) return record; // another replica renewed it
      const now = clock.now();
      if (record.lease !== null && record.lease.until > now) {
        if (now > giveUpAt) return this.stillValid(record);
        await sleep(POLL_MS + Math.random() * POLL_MS);
        continue;
      }
      const leased: StoredLink = { ...record, lease: { holder, until: now + leaseMs } };
      if (await store.replaceIf(VAULT_NAMESPACE, key, record, leased, ttlMs)) return this.renewHolding(leased);
    }
  }

  /** Holding the lease: ask the vendor once, then keep what it gave (or mark the link stale if it refused). */
  private async renewHolding(leased: StoredLink): Promise<StoredLink> {
    const { store, clock, leaseMs, ttlMs } = this.options;
    const key = linkKey(leased.principal, leased.vendor);
    let tokens: LinkTokens;
    let renewed: RenewedTokens;
    try {
      tokens = this.options.unseal(leased);
      renewed = await this.options.refreshers[leased.vendor]!(tokens.refreshToken!, AbortSignal.timeout(Math.floor(leaseMs * 0.8)));
    } catch (error) {
      // A record this key cannot open is released at once too, so that no other reader waits out the lease for it.
      const refused = error instanceof LinkError && (error.problem === 'refresh_refused' || error.problem === 'link_stale');
      const released: StoredLink = refused ? { ...leased, lease: null, stale: { reason: `${error.message}`, at: clock.now() } } : { ...leased, lease: null };
      await store.replaceIf(VAULT_NAMESPACE, key, leased, released, ttlMs).catch(() => false);
      if (refused || (error instanceof LinkError && (error.problem === 'sealed_with_other_key' || error.problem === 'unreadable'))) throw error;
      return this.stillValid(released, error);
    }
    const next: StoredLink = {
      ...leased,
      sealed: this.options.reseal(leased, { accessToken: renewed.accessToken, refreshToken: renewed.refreshToken ?? tokens.refreshToken }),
      expiresAt: renewed.expiresAt ?? null,
      refreshExpiresAt: renewed.refreshExpiresAt ?? leased.refreshExpiresAt,
      scopes: renewed.scopes === undefined ? leased.scopes : [...renewed.scopes],
      refreshedAt: clock.now(),
      lease: null,
    };
    // The old refresh token is spent now: the new one must reach the store, so a failing store is tried again.
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      try {
        await store.replaceIf(VAULT_NAMESPACE, key, leased, next, ttlMs);
        break; // written, or the link was replaced (relinked, removed) meanwhile: either way this call may use it
      } catch {
        await sleep(100 * 2 ** attempt);
      }
    }
    return next;
  }

  /**
   * A renewal that could not happen: the current token serves while it has not expired. After that, the token
   * endpoint's rate limit is said as it is (`upstream_rate_limited`, with when to retry: renewal-limits.ts).
   */
  private stillValid(record: StoredLink, cause?: unknown): StoredLink {
    if (record.expiresAt !== null && record.expiresAt > this.options.clock.now()) return record;
    if (cause instanceof LinkError) throw cause;
    const limited = renewalRateLimit(cause);
    if (limited !== undefined) throw limited;
    throw new LinkError('refresh_failed', record.vendor);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
