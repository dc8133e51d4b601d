import { nodeCrypto } from '../../core/node-crypto.js';
import type { Principal } from '../../core/identity/principal.js';
import { systemClock, type Clock, type KeyValueStore } from '../../core/store/key-value-store.js';
import { argsHash } from './approvals/approval-binding.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';

const NAMESPACE = 'policy-confirmation';
/** How long the person has to answer by default (MCP_CONFIRMATION_TTL_SECONDS): past it, they are asked again. */
const CONFIRMATION_TTL_MS = 5 * 60_000;
/** The signing key is kept this long, then made anew (states in flight then fail, and are asked again). */
const KEY_TTL_MS = 30 * 24 * 3_600_000;
const VERSION = 'c1';

/** What one question is about: an answer counts for exactly this caller, tool, arguments and rule. */
export interface ConfirmationSubject {
  principal: Principal;
  tool: string;
  /** The validated arguments (bound as the approvals bind them: without `jq` and `outputFormat`). */
  args: Record<string, unknown>;
  ruleId: string | null;
  policyVersion: string;
}

/** Why an echoed state was not taken (`valid` when it was): logged, and the person is asked again. */
export type Redeemed = 'valid' | 'missing' | 'forged' | 'expired' | 'mismatched' | 'used';

/** The signed part of a state: no name, no argument, only hashes, an expiry and a nonce. */
interface Payload {
  /** The binding's hash (bindingOf). */
  b: string;
  /** Expiry, milliseconds since the epoch. */
  e: number;
  /** Single use: recorded in the store when minted, taken when redeemed. */
  n: string;
}

/**
 * The `requestState` of a question asked through `input_required` (2026-07-28): it round-trips through the
 * client, so it is signed (HMAC-SHA256) and bound to the caller, the tool, a hash of the arguments, the rule and
 * the policy version; it expires (MCP_CONFIRMATION_TTL_SECONDS, five minutes by default); and its nonce, recorded in the shared store when it is minted,
 * is taken when it is redeemed, so of two retries with one state (a replay, two replicas) at most one counts.
 *
 * The signing key is 32 random bytes kept in the shared store (memory, SQLite or Redis), so every replica signs
 * and verifies with the same one; whoever can write that store can already grant approvals, so it is as strong as
 * they are. The state is signed, not encrypted: it holds only hashes, never a name or an argument.
 */
export class ConfirmationStates {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock = systemClock,
    readonly ttlMs = CONFIRMATION_TTL_MS,
  ) {}

  /** A new state for a question about `subject`. */
  async mint(subject: ConfirmationSubject): Promise<string> {
    const payload: Payload = { b: bindingOf(subject), e: this.clock.now() + this.ttlMs, n: nodeCrypto().randomBytes(18).toString('base64url') };
    await this.store.set(NAMESPACE, `nonce:${payload.n}`, payload.b, this.ttlMs);
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${VERSION}.${body}.${await this.mac(body)}`;
  }

  /**
   * Whether `state` (as a retried call echoed it) is one this server minted for `subject`, unexpired and not used
   * before; a valid state is used up. A state that does not match is left unused: another caller cannot spoil it.
   */
  async redeem(state: string | undefined, subject: ConfirmationSubject): Promise<Redeemed> {
    if (state === undefined || state === '') return 'missing';
    const [version, body, mac, ...rest] = state.split('.');
    if (version !== VERSION || body === undefined || mac === undefined || rest.length > 0) return 'forged';
    if (!sameText(mac, await this.mac(body))) return 'forged';
    const payload = parsePayload(body);
    if (payload === undefined) return 'forged';
    if (payload.e <= this.clock.now()) return 'expired';
    if (!sameText(payload.b, bindingOf(subject))) return 'mismatched';
    const recorded = await this.store.take<string>(NAMESPACE, `nonce:${payload.n}`);
    return recorded === payload.b ? 'valid' : 'used';
  }

  private async mac(body: string): Promise<string> {
    return nodeCrypto()
      .createHmac('sha256', await this.key())
      .update(`mcp-devtools confirmation state\u0000${body}`)
      .digest('base64url');
  }

  /** The shared signing key, made by the first replica that needs one (of two at once, the last write wins). */
  private async key(): Promise<Buffer> {
    const kept = await this.store.get<string>(NAMESPACE, 'signing-key');
    if (kept !== undefined) return Buffer.from(kept, 'base64url');
    await this.store.set(NAMESPACE, 'signing-key', nodeCrypto().randomBytes(32).toString('base64url'), KEY_TTL_MS);
    // Read back: the key another replica wrote at the same moment may have won.
    return Buffer.from((await this.store.get<string>(NAMESPACE, 'signing-key'))!, 'base64url');
  }
}

/** One hash for (caller, tool, arguments, rule, policy version): a retry of anything else does not match. */
function bindingOf(subject: ConfirmationSubject): string {
  const { principal } = subject;
  return sha256Hex(canonicalJson(['confirm', principal.via, principal.subject, subject.tool, argsHash(subject.args), subject.ruleId, subject.policyVersion]));
}

function parsePayload(body: string): Payload | undefined {
  try {
    const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload> | null;
    if (value === null || typeof value !== 'object') return undefined;
    if (typeof value.b !== 'string' || typeof value.e !== 'number' || typeof value.n !== 'string') return undefined;
    return { b: value.b, e: value.e, n: value.n };
  } catch {
    return undefined;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && nodeCrypto().timingSafeEqual(left, right);
}
