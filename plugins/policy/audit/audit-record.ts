import type { Decision } from '../engine/policy-engine.js';
import type { PublicIdentity } from '../engine/call-facts.js';
import type { GraphqlFacts } from '../../../core/plugin/upstream-types.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { setDataMember } from '../../../core/result/data-member.js';
import { PROVENANCE_META_KEY, type ProvenanceLabel } from '../../../core/plugin/provenance.js';

/** The audit record's provenance of a result, from its `_meta` (undefined when it carries no labels). */
export function auditedProvenance(meta: Record<string, unknown> | undefined): AuditRecord['provenance'] {
  const labels = (meta?.[PROVENANCE_META_KEY] as { labels?: ProvenanceLabel[] } | undefined)?.labels;
  if (labels === undefined) return undefined;
  const distinct = (names: string[]): string[] => [...new Set(names)].slice(0, 10);
  return {
    labels: labels.length,
    untrusted: distinct(labels.filter((l) => l.integrity === 'untrusted').map((l) => l.item)),
    private: distinct(labels.filter((l) => l.confidentiality === 'private').map((l) => l.resource)),
  };
}

/** One line of the audit log. `prev` chains it to the line before; `hash` seals it. */
export interface AuditRecord {
  seq: number;
  time: string;
  /**
   * The call's request id, as in its log line, its trace and the X-Request-Id the vendor got. Absent from records
   * written before it was kept, and from an approver's decision.
   */
  requestId?: string;
  principal: { subject: string; groups: string[]; via: string };
  /**
   * The MCP client that sent the call, as it named itself (its `clientInfo`: never verified, so never a basis
   * for a decision); absent when it gave no name, and from records written before it was kept.
   */
  client?: { name: string; version?: string };
  tool: string;
  /** The policy's decision, or null when no policy is configured or the call failed before the policy stage. */
  decision: Decision | null;
  upstream: PublicIdentity | null;
  outcome: { status: 'ok' } | { status: 'error'; code: string };
  durationMs: number;
  /** Keys and types of the arguments as the caller sent them; never a value. */
  args: Shape;
  /** For a GraphQL call: its operation type, name and root fields, never a variable's value. */
  graphql?: GraphqlFacts;
  /**
   * For a result that carries people-written text: the items it labelled untrusted and the resources it
   * labelled private (names, never the text), at most ten of each, and how many labels it had.
   */
  provenance?: { labels: number; untrusted: string[]; private: string[] };
  /**
   * Only on the record of an approver's decision (the approver is `principal`; the held call's tool is `tool`):
   * the upstream request it is for, and until when a grant may be used.
   */
  approval?: {
    id: string;
    status: 'granted' | 'rejected';
    requestedBy: string;
    reason?: string;
    request?: { method: string; path: string };
    expiresAt?: string;
  };
  /** Only on the record of one delivery attempt of an approval event to a webhook receiver (its origin only). */
  notification?: Notification;
  prev: string;
  hash: string;
}

export interface Notification {
  event: string;
  eventId: string;
  approvalId: string;
  /** The receiver's origin: its path may hold a secret (a Slack incoming webhook's does). */
  receiver: string;
  attempt: number;
  delivered: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed, when it did. */
  error?: string;
  /** Whether another attempt follows (false once delivered, given up or dropped). */
  retrying: boolean;
}

export type Shape = string | { [key: string]: Shape };

/** The `prev` of the first record of a log. */
export const GENESIS = '0'.repeat(64);

const MAX_DEPTH = 6;
const MAX_KEYS = 64;

/**
 * The shape of a value: an object's keys with the shape of each value, and a type name for anything else
 * (`string`, `number`, `boolean`, `null`, `array(3)`). Values never appear, so the log can be shared with
 * auditors without leaking what agents wrote into tickets or queries.
 */
export function shapeOf(value: unknown, depth = 0): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value !== 'object') return typeof value;
  if (depth >= MAX_DEPTH) return 'object';
  const out: Record<string, Shape> = {};
  const keys = Object.keys(value).sort();
  for (const key of keys.slice(0, MAX_KEYS)) {
    // A data member, never the prototype: a "__proto__" argument is recorded like any other key.
    setDataMember(out, key, shapeOf((value as Record<string, unknown>)[key], depth + 1));
  }
  if (keys.length > MAX_KEYS) out['...'] = `${keys.length - MAX_KEYS} more keys`;
  return out;
}

/** The seal of a record: SHA-256 of its canonical JSON without `hash` (so `prev` and `seq` are covered). */
export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...sealed } = record;
  return sha256Hex(canonicalJson(sealed));
}
