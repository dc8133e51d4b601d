import type { Clock, KeyValueStore } from '../../../core/store/key-value-store.js';
import type { TaskRecord } from './task-record.js';

const NAMESPACE = 'mcp-tasks';

/**
 * How often the process running a task says it still does (the record's heartbeatAt), and reads whether a
 * tasks/cancel reached another replica: the task's poll interval, within 1 to 10 seconds.
 */
export const heartbeatMs = (pollIntervalMs: number): number => Math.min(Math.max(pollIntervalMs, 1000), 10_000);

/**
 * A working task whose heartbeat is this old lost the process that ran it (it died or was killed): it is read
 * as failed, so a client polling another replica stops waiting for a result nothing will write. Three of the
 * longest heartbeats: a store that is slow for a moment does not orphan a task.
 */
export const STALE_AFTER_MS = 30_000;

/** How often a compare-and-set that lost a race is tried again before the change is given up. */
const MAX_ATTEMPTS = 8;

/**
 * The tasks in the shared store (memory, SQLite, or Redis across replicas), by their id: a task any replica
 * created is read by any replica. An entry lives until its task's TTL (counted from its creation) and is then
 * gone: `read` answers undefined for an unknown, expired or someone else's task alike.
 */
export class TaskBoard {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /** Resolves once the task is stored: a tasks/get anywhere then finds it (the spec's "durably created"). */
  async create(record: TaskRecord): Promise<void> {
    await this.store.set(NAMESPACE, record.taskId, record, this.ttlLeft(record));
  }

  /** The owner's task, as a poll should see it (a working task whose process is gone reads failed). */
  async read(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const record = await this.store.get<TaskRecord>(NAMESPACE, taskId);
    if (record === undefined || record.owner !== owner || this.ttlLeft(record) <= 0) return undefined;
    if (record.status !== 'working' || this.clock.now() - record.heartbeatAt <= STALE_AFTER_MS) return record;
    return (await this.update(taskId, owner, (current) => (current.status === 'working' ? orphaned(current, this.clock.now()) : current))) ?? record;
  }

  /**
   * Changes the owner's task with `change` (given the stored value, it returns the new one, or the same object to
   * leave it), by compare-and-set so that a heartbeat and a cancellation from another replica never overwrite
   * each other. Resolves the stored record, or undefined when the task is gone.
   */
  async update(taskId: string, owner: string, change: (current: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.store.get<TaskRecord>(NAMESPACE, taskId);
      if (current === undefined || current.owner !== owner) return undefined;
      const next = change(current);
      if (next === current) return current;
      const ttl = this.ttlLeft(next);
      if (ttl <= 0) return undefined;
      if (await this.store.replaceIf(NAMESPACE, taskId, current, next, ttl)) return next;
    }
    throw new Error(`task ${taskId.slice(0, 8)}…: too many concurrent changes`);
  }

  private ttlLeft(record: TaskRecord): number {
    return record.createdAt + record.ttlMs - this.clock.now();
  }
}

/** A working task nobody runs any more. */
function orphaned(record: TaskRecord, now: number): TaskRecord {
  const message = 'The server process running this task stopped before it finished; call the tool again.';
  return { ...record, status: 'failed', statusMessage: message, lastUpdatedAt: now, error: { code: -32603, message } };
}
