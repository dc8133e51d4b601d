import { nodeCrypto } from '../../../core/node-crypto.js';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { Kernel } from '../../../core/kernel/kernel.js';
import type { Logger } from '../../../core/logging/logger.js';
import { systemClock, type Clock, type KeyValueStore } from '../../../core/store/key-value-store.js';
import { TOKENS } from '../../../core/tokens.js';
import { heartbeatMs, TaskBoard } from './task-board.js';
import type { TaskError, TaskRecord } from './task-record.js';
import { TaskSettings } from './task-settings.js';

/** What a task's work ends with: the request's result, or the JSON-RPC error it would have answered. */
export type TaskOutcome = { result: Record<string, unknown> } | { error: TaskError };

/** The work of one task, run detached from the request that created it. */
export type TaskWork = (signal: AbortSignal, progress: (message: string) => void) => Promise<TaskOutcome>;

/** Why a task's work was stopped before it ended by itself. */
type StopReason = 'cancelled' | 'shutdown' | 'expired';

interface Running {
  owner: string;
  controller: AbortController;
  stopped?: StopReason;
  /** The task's record writes, one after another (progress, heartbeats, the final state). */
  writes: Promise<unknown>;
  done: Promise<void>;
}

export interface TaskRunnerOptions {
  ttlMs: number;
  pollIntervalMs: number;
  maxPerPrincipal: number;
}

/** How long a tasks/cancel of a task this process runs waits for its work to stop, so the next tasks/get reads `cancelled`. */
const CANCEL_SETTLE_MS = 5_000;

/**
 * The tasks this process runs, over the shared TaskBoard: it creates a task (an unguessable id, stored before
 * the client hears of it), runs its work detached, writes its progress and a heartbeat to the store, and its
 * final state when the work ends. The work runs where it was started; any replica reads the state, and a
 * cancellation that reaches another replica is picked up at the next heartbeat. Shutdown stops every task.
 */
export class TaskRunner {
  private readonly running = new Map<string, Running>();
  private closing = false;

  constructor(
    readonly board: TaskBoard,
    private readonly options: TaskRunnerOptions,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Starts the work as a task of `owner`; `busy` when they already have as many running here as allowed. */
  async start(owner: string, work: TaskWork): Promise<TaskRecord | 'busy'> {
    if (this.closing) throw new ProtocolError(-32603, 'The server is shutting down; call again on another server.');
    if ([...this.running.values()].filter((r) => r.owner === owner).length >= this.options.maxPerPrincipal) return 'busy';
    const now = this.clock.now();
    const record: TaskRecord = {
      // 256 random bits: the id names the task to whoever holds it, and nobody can guess another's.
      taskId: nodeCrypto().randomBytes(32).toString('base64url'),
      owner,
      status: 'working',
      statusMessage: 'Started.',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.options.ttlMs,
      pollIntervalMs: this.options.pollIntervalMs,
      heartbeatAt: now,
    };
    const entry: Running = { owner, controller: new AbortController(), writes: Promise.resolve(), done: Promise.resolve() };
    // Counted before the store is written to, so that calls racing each other cannot pass the bound together.
    this.running.set(record.taskId, entry);
    try {
      await this.board.create(record);
    } catch (error) {
      this.running.delete(record.taskId);
      throw error;
    }
    entry.done = this.drive(record, work, entry);
    return record;
  }

  /**
   * Asks the owner's task to stop: here at once (resolving when its work has stopped, within a bound), on another
   * replica at that one's next heartbeat. False when there is no such task of theirs.
   */
  async cancel(taskId: string, owner: string): Promise<boolean> {
    const local = this.running.get(taskId);
    if (local !== undefined && local.owner === owner) {
      this.stop(local, 'cancelled');
      await Promise.race([local.done, new Promise((resolve) => setTimeout(resolve, CANCEL_SETTLE_MS).unref())]);
      return true;
    }
    const record = await this.board.read(taskId, owner);
    if (record === undefined) return false;
    if (record.status === 'working')
      await this.board.update(taskId, owner, (current) => (current.status === 'working' ? { ...current, cancelRequested: true } : current));
    return true;
  }

  /** Stops every task this process runs (they turn failed: the server shut down) and takes no more. */
  async close(): Promise<void> {
    this.closing = true;
    const all = [...this.running.values()];
    for (const entry of all) this.stop(entry, 'shutdown');
    await Promise.allSettled(all.map((entry) => entry.done));
  }

  private stop(entry: Running, reason: StopReason): void {
    if (entry.stopped !== undefined) return;
    entry.stopped = reason;
    entry.controller.abort(new Error(`task ${reason}`));
  }

  private async drive(record: TaskRecord, work: TaskWork, entry: Running): Promise<void> {
    const { taskId, owner } = record;
    const write = (change: (current: TaskRecord) => TaskRecord): void => {
      entry.writes = entry.writes
        .then(() => this.board.update(taskId, owner, change))
        .catch((error: unknown) => this.logger.warn({ err: error }, 'task state not written'));
    };
    // Each heartbeat also reads whether a tasks/cancel reached another replica.
    const beat = (): void =>
      write((current) => {
        if (current.cancelRequested === true) this.stop(entry, 'cancelled');
        return { ...current, heartbeatAt: this.clock.now() };
      });
    const heartbeat = setInterval(beat, heartbeatMs(record.pollIntervalMs));
    heartbeat.unref();
    // Nobody can read the result after the TTL: the work is stopped then.
    const expiry = setTimeout(() => this.stop(entry, 'expired'), record.ttlMs);
    expiry.unref();
    let outcome: TaskOutcome;
    try {
      outcome = await work(entry.controller.signal, (message) =>
        write((current) => (current.status === 'working' ? { ...current, statusMessage: message, lastUpdatedAt: this.clock.now() } : current)),
      );
    } catch (error) {
      outcome = { error: error instanceof ProtocolError ? { code: error.code, message: error.message } : { code: -32603, message: 'Internal error' } };
      if (!(error instanceof ProtocolError)) this.logger.error({ err: error }, 'task failed');
    } finally {
      clearInterval(heartbeat);
      clearTimeout(expiry);
    }
    if (entry.stopped !== 'expired') write((current) => ({ ...current, ...finalState(outcome, entry.stopped), lastUpdatedAt: this.clock.now() }));
    await entry.writes;
    this.running.delete(taskId);
  }
}

/** The task's terminal state: how its work ended, unless it was stopped (then its result, a cancellation, is not the task's). */
function finalState(outcome: TaskOutcome, stopped: StopReason | undefined): Partial<TaskRecord> {
  if (stopped === 'cancelled') return { status: 'cancelled', statusMessage: 'Cancelled by the client.', cancelRequested: false };
  if (stopped === 'shutdown') {
    const message = 'The server shut down before the task finished; call the tool again.';
    return { status: 'failed', statusMessage: message, error: { code: -32603, message } };
  }
  if ('error' in outcome) return { status: 'failed', statusMessage: outcome.error.message, error: outcome.error };
  return { status: 'completed', statusMessage: 'Finished.', result: outcome.result };
}

const runners = new WeakMap<Kernel, TaskRunner>();

/** The task runner of this process's kernel (one for every MCP server instance it serves). */
export function taskRunnerOf(kernel: Kernel): TaskRunner {
  let runner = runners.get(kernel);
  if (runner === undefined) {
    const settings = taskSettings(kernel);
    const clock = resolveOr<Clock>(kernel, TOKENS.Clock, systemClock);
    runner = new TaskRunner(new TaskBoard(kernel.resolve<KeyValueStore>(TOKENS.Store), clock), settings, clock, kernel.logger);
    runners.set(kernel, runner);
  }
  return runner;
}

/** Stops the tasks of this kernel's process, if it ran any (shutdown, before the kernel closes). */
export async function closeTasks(kernel: Kernel): Promise<void> {
  await runners.get(kernel)?.close();
}

function taskSettings(kernel: Kernel): TaskRunnerOptions {
  const defaults = { MCP_TASK_TTL_SECONDS: 3600, MCP_TASK_MAX_PER_PRINCIPAL: 10, MCP_TASK_POLL_INTERVAL_MS: 5000 };
  let values = defaults;
  try {
    values = kernel.settings.of(TaskSettings);
  } catch {
    // A kernel embedded without the server's settings (a plugin's own tests): the defaults.
  }
  return { ttlMs: values.MCP_TASK_TTL_SECONDS * 1000, maxPerPrincipal: values.MCP_TASK_MAX_PER_PRINCIPAL, pollIntervalMs: values.MCP_TASK_POLL_INTERVAL_MS };
}

function resolveOr<T>(kernel: Kernel, token: string, fallback: T): T {
  try {
    return kernel.resolve<T>(token);
  } catch {
    return fallback;
  }
}
