import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { LinkVendor } from '../../core/identity/acting-identity.js';
import { LinkError } from '../../core/identity/link-error.js';
import { SecretText } from '../../core/identity/secret-text.js';
import { systemClock, type Clock, type KeyValueStore } from '../../core/store/key-value-store.js';
import { open, seal, type SealedSecrets } from './sealed-box.js';
import type { VaultKey } from './vault-key.js';

const NAMESPACE = 'identity-link-state';
const DEFAULT_TTL_MS = 10 * 60_000;

/** Who is linking: the principal, and the session (console sign-in, CLI run) the link was started from. */
export interface Linker {
  principal: string;
  session: string;
}

/** A link attempt waiting for its callback. Only hashes of the principal and session are stored. */
interface PendingState {
  vendor: LinkVendor;
  principal: string;
  session: string;
  expiresAt: number;
  /** Secrets of the attempt (a device code), sealed under the vault key; null when there are none. */
  sealed: SealedSecrets | null;
}

export interface StartedState {
  state: string;
  /** The PKCE verifier: derived from the state under the vault key, so it is never stored or sent anywhere but the token endpoint. */
  verifier: SecretText;
}

/**
 * The `state` of link attempts, in the shared store so a callback may land on any replica. A state is bound to
 * the vendor, the principal and the session that started it, expires (10 minutes), and is single use: the
 * callback takes it atomically, so of two callbacks with one state (a replay, a double click) exactly one
 * proceeds; the other is told the attempt was already used. A callback from another principal or session is
 * refused without using the state up, so it cannot spoil the real owner's attempt.
 */
export class LinkStates {
  constructor(
    private readonly store: KeyValueStore,
    private readonly key: VaultKey,
    private readonly clock: Clock = systemClock,
    readonly ttlMs = DEFAULT_TTL_MS,
  ) {}

  async begin(vendor: LinkVendor, linker: Linker, secrets?: Record<string, string>): Promise<StartedState> {
    const state = randomBytes(32).toString('base64url');
    const pending: PendingState = {
      vendor,
      principal: hash(linker.principal),
      session: hash(linker.session),
      expiresAt: this.clock.now() + this.ttlMs,
      sealed: secrets === undefined ? null : seal(JSON.stringify(secrets), this.key, context(state)),
    };
    await this.store.set(NAMESPACE, `pending:${hash(state)}`, pending, this.ttlMs);
    return { state, verifier: this.verifier(state) };
  }

  /** The PKCE verifier of `state` (43 characters of base64url, as RFC 7636 asks). */
  verifier(state: string): SecretText {
    return new SecretText(createHmac('sha256', this.key.bytes()).update(`pkce verifier\u0000${state}`).digest('base64url'));
  }

  /** The attempt's secrets, without using it up (device polling asks several times); checks as `finish` does. */
  async peek(vendor: LinkVendor, state: string, linker: Linker): Promise<Record<string, string>> {
    const pending = await this.owned(vendor, state, linker);
    return this.secretsOf(pending, state);
  }

  /**
   * Whether `state` is an attempt of `vendor` still waiting for its callback, whoever started it (the browser's
   * callback knows no one yet): refuses an unknown, expired, used or other vendor's state, and uses nothing up.
   */
  async expect(vendor: LinkVendor, state: string): Promise<void> {
    if (typeof state !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(state)) throw new LinkError('state_unknown', vendor);
    const pending = await this.store.get<PendingState>(NAMESPACE, `pending:${hash(state)}`);
    if (pending === undefined || pending.expiresAt <= this.clock.now()) throw await this.missing(vendor, state);
    if (pending.vendor !== vendor) throw new LinkError('state_unknown', vendor);
  }

  /** Uses the attempt up and gives its secrets; refuses an unknown, expired, used, foreign or other vendor's state. */
  async finish(vendor: LinkVendor, state: string, linker: Linker): Promise<Record<string, string>> {
    const pending = await this.owned(vendor, state, linker);
    const taken = await this.store.take<PendingState>(NAMESPACE, `pending:${hash(state)}`);
    // It was there a moment ago: another callback with this state took it first.
    if (taken === undefined) throw new LinkError('state_replayed', vendor);
    await this.store.set(NAMESPACE, `used:${hash(state)}`, true, Math.max(1, pending.expiresAt - this.clock.now()));
    return this.secretsOf(taken, state);
  }

  private async owned(vendor: LinkVendor, state: string, linker: Linker): Promise<PendingState> {
    if (typeof state !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(state)) throw new LinkError('state_unknown', vendor);
    const pending = await this.store.get<PendingState>(NAMESPACE, `pending:${hash(state)}`);
    if (pending === undefined || pending.expiresAt <= this.clock.now()) throw await this.missing(vendor, state);
    if (pending.vendor !== vendor) throw new LinkError('state_unknown', vendor);
    if (pending.principal !== hash(linker.principal) || pending.session !== hash(linker.session)) throw new LinkError('state_other_principal', vendor);
    return pending;
  }

  private async missing(vendor: LinkVendor, state: string): Promise<LinkError> {
    const used = await this.store.get<boolean>(NAMESPACE, `used:${hash(state)}`);
    return new LinkError(used === true ? 'state_replayed' : 'state_unknown', vendor);
  }

  private secretsOf(pending: PendingState, state: string): Record<string, string> {
    if (pending.sealed === null) return {};
    const text = open(pending.sealed, this.key, context(state));
    if (text === undefined) throw new LinkError('state_unknown', pending.vendor);
    return JSON.parse(text) as Record<string, string>;
  }
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function context(state: string): string {
  return `mcp-devtools link state\u0000${hash(state)}`;
}
