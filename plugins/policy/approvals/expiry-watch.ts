import type { Clock, KeyValueStore } from '../../../core/store/key-value-store.js';
import type { ApprovalRecord } from './approval-record.js';
import { changeList } from './shared-list.js';

const WATCH = 'approval-expiry';
const WATCHED = 'approval-expiry-index';
/** How long after its expiry an undecided approval is still told of: a server stopped for a while catches up. */
const GRACE_MS = 24 * 60 * 60 * 1000;

interface Watched {
  id: string;
  expiresAt: number;
}

/**
 * Which pending approvals expired with nobody deciding them, so receivers can be told (`approval.expired`).
 * Each held call leaves a token; a decision deletes it; a sweep after the expiry takes it, in one atomic
 * operation of the store, so of the servers and workers sweeping one store, one tells of each expiry.
 */
export class ExpiryWatch {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  async watch(record: ApprovalRecord): Promise<void> {
    const expiresAt = Date.parse(record.expiresAt);
    const ttl = expiresAt - this.clock.now() + GRACE_MS;
    await this.store.set(WATCH, record.id, record, ttl);
    await changeList<Watched>(
      this.store,
      WATCHED,
      'all',
      (entries) => [...entries.filter((e) => e.id !== record.id && e.expiresAt + GRACE_MS > this.clock.now()), { id: record.id, expiresAt }],
      (entries) => Math.max(...entries.map((e) => e.expiresAt)) + GRACE_MS - this.clock.now(),
    );
  }

  /** A decided approval does not expire undecided. */
  async forget(id: string): Promise<void> {
    await this.store.delete(WATCH, id);
  }

  /**
   * The approvals found expired since the last sweep whose token this sweep took and that `decided` says were
   * never decided (a decision landing in the same instant as the expiry keeps its record, so it is asked).
   */
  async sweep(decided: (id: string) => Promise<boolean>): Promise<ApprovalRecord[]> {
    const now = this.clock.now();
    const due = ((await this.store.get<Watched[]>(WATCHED, 'all')) ?? []).filter((e) => e.expiresAt <= now);
    if (due.length === 0) return [];
    const expired: ApprovalRecord[] = [];
    for (const entry of due) {
      const record = await this.store.take<ApprovalRecord>(WATCH, entry.id);
      if (record !== undefined && !(await decided(entry.id))) expired.push(record);
    }
    const swept = new Set(due.map((e) => e.id));
    await changeList<Watched>(
      this.store,
      WATCHED,
      'all',
      (entries) => (entries.some((e) => swept.has(e.id)) ? entries.filter((e) => !swept.has(e.id)) : undefined),
      (entries) => (entries.length === 0 ? 1 : Math.max(...entries.map((e) => e.expiresAt)) + GRACE_MS - now),
    );
    return expired;
  }
}
