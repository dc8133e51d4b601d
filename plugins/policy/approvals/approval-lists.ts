import type { Clock, KeyValueStore } from '../../../core/store/key-value-store.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import type { ApprovalSubject } from './approval-binding.js';
import type { ApprovalRecord } from './approval-record.js';
import { changeList } from './shared-list.js';

const INDEX = 'approval-index';
const PENDING = 'approval-pending';

interface IndexEntry {
  id: string;
  expiresAt: number;
}

type Principal = ApprovalSubject['principal'];

/**
 * The two lists the approvals store keeps beside its records, since the store cannot enumerate keys: every
 * approval until it expires (what `approvals list` and the console show), and each principal's pending ones
 * (the flood limit, MCP_APPROVAL_MAX_PENDING). Both are changed by compare-and-set (shared-list.ts): aids for
 * people and a bound, never what decides a call.
 */
export class ApprovalLists {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** The ids of every approval listed, live or not (the caller reads each record). */
  async ids(): Promise<string[]> {
    return ((await this.store.get<IndexEntry[]>(INDEX, 'all')) ?? []).map((e) => e.id);
  }

  /** Lists an approval until `expiresAt`, dropping the entries that have expired. */
  async index(id: string, expiresAt: number): Promise<void> {
    const now = this.clock.now();
    await changeList<IndexEntry>(
      this.store,
      INDEX,
      'all',
      (entries) => {
        const live = entries.filter((e) => e.expiresAt > now && e.id !== id);
        if (live.length === entries.length - 1 && entries.some((e) => e.id === id && e.expiresAt === expiresAt)) return undefined;
        return [...live, { id, expiresAt }];
      },
      (entries) => Math.max(...entries.map((e) => e.expiresAt)) - now,
    );
  }

  /** The ids of the principal's approvals that are still pending, and of those listed that no longer are. */
  async pendingOf(principal: Principal, get: (id: string) => Promise<ApprovalRecord | undefined>): Promise<{ pending: string[]; settled: Set<string> }> {
    const entries = (await this.store.get<IndexEntry[]>(PENDING, principalKey(principal))) ?? [];
    const records = await Promise.all(entries.map((e) => get(e.id)));
    const pending = entries.filter((_, i) => records[i]?.status === 'pending').map((e) => e.id);
    return { pending, settled: new Set(entries.map((e) => e.id).filter((id) => !pending.includes(id))) };
  }

  /** Adds a new pending approval to its principal's list, dropping those found settled. */
  async notePending(principal: Principal, record: ApprovalRecord, settled: ReadonlySet<string>): Promise<void> {
    const now = this.clock.now();
    const entry = { id: record.id, expiresAt: Date.parse(record.expiresAt) };
    await changeList<IndexEntry>(
      this.store,
      PENDING,
      principalKey(principal),
      (entries) => [...entries.filter((e) => e.expiresAt > now && e.id !== entry.id && !settled.has(e.id)), entry],
      () => this.ttlMs,
    );
  }
}

function principalKey(principal: Principal): string {
  return sha256Hex(canonicalJson([principal.via, principal.subject]));
}
