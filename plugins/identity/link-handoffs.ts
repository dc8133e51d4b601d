import { createHash, randomBytes } from 'node:crypto';
import { isLinkVendor, type LinkVendor } from '../../core/identity/acting-identity.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';
import { open, seal, type SealedSecrets } from './sealed-box.js';
import type { VaultKey } from './vault-key.js';

const NAMESPACE = 'identity-link-handoff';
/** Long enough for the browser's same-site navigation (and a slow sign-in page), short enough to be forgotten. */
const HANDOFF_TTL_MS = 2 * 60_000;

/** What the vendor sent the browser back with, waiting for the console session that started the attempt. */
export interface Arrival {
  vendor: LinkVendor;
  code: string;
  state: string;
}

interface StoredHandoff {
  vendor: LinkVendor;
  sealed: SealedSecrets;
}

/**
 * The hand-over between the browser's callback (/identity/callback/<vendor>, which no session cookie reaches:
 * the console's is SameSite=Strict) and the console page that finishes the link (where it is sent). The
 * callback keeps the code and state here, sealed under the vault key, and gives the browser a random handle
 * instead; only that handle travels in the same-site navigation, so the code and state appear in no page, no
 * later URL, no Referer and no "after sign-in" cookie. A handle is single use and lives two minutes; on its own
 * it links nothing: the attempt it carries still has to belong to the session that brings it.
 */
export class LinkHandoffs {
  constructor(
    private readonly store: KeyValueStore,
    private readonly key: VaultKey,
  ) {}

  async hand(arrival: Arrival): Promise<string> {
    const handle = randomBytes(32).toString('base64url');
    const sealed = seal(JSON.stringify({ code: arrival.code, state: arrival.state }), this.key, context(handle, arrival.vendor));
    await this.store.set(NAMESPACE, hash(handle), { vendor: arrival.vendor, sealed } satisfies StoredHandoff, HANDOFF_TTL_MS);
    return handle;
  }

  /** The arrival the handle stands for, used up; undefined for a malformed, unknown, expired or used handle. */
  async take(handle: string): Promise<Arrival | undefined> {
    if (typeof handle !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(handle)) return undefined;
    const stored = await this.store.take<StoredHandoff>(NAMESPACE, hash(handle));
    if (stored === undefined || !isLinkVendor(stored.vendor)) return undefined;
    const text = open(stored.sealed, this.key, context(handle, stored.vendor));
    if (text === undefined) return undefined;
    const { code, state } = JSON.parse(text) as { code: string; state: string };
    return { vendor: stored.vendor, code, state };
  }
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function context(handle: string, vendor: LinkVendor): string {
  return `mcp-devtools link handoff\u0000${vendor}\u0000${hash(handle)}`;
}
