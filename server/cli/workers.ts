import cluster, { type Worker } from 'node:cluster';
import { StartupError } from '../../core/errors/tool-error.js';
import { createLogger, type Logger } from '../../core/logging/logger.js';
import type { Settings } from '../../core/config/settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { aggregateWorkerMetrics } from '../metrics/cluster-metrics.js';
import { logDestination } from './log-output.js';

/** What a worker tells the primary once its HTTP transport listens. */
interface ListeningMessage {
  mcpDevtools: 'listening';
  url: string;
}

/** Worker deaths the primary replaces within a minute before it concludes they will keep dying. */
const MAX_RESTARTS_PER_MINUTE = 5;

/** How the primary tells a worker its slot (1..N): in the worker's environment, which no setting reads. */
const SLOT_VARIABLE = 'MCP_DEVTOOLS_WORKER';

/** What makes one worker's records and lines its own: its slot, and what follows from it. */
export interface WorkerIdentity {
  /** 1..N, kept by a replacement: the primary forks it into a dead worker's slot. */
  slot: number;
  /** Log lines carry it beside pid and hostname, so a line names its worker however often pids change. */
  logFields: { worker: number };
  /** The settings this worker runs with: each per-worker setting (an audit chain's writer) its own (ownSettings). */
  settings(settings: Settings): Settings;
}

/**
 * `--workers N` (MCP_WORKERS) over Streamable HTTP: this process becomes the primary of N node:cluster
 * workers, each a whole server sharing the one port (the transport is stateless, so any worker can answer any
 * POST) and the one store MCP_STORE_URL names. Decided from the worker count and the settings the caller resolved once (the
 * ones its own server starts with). True when it did (the caller serves nothing itself),
 * false when this process should serve: one worker, or this is a worker. memory:// is refused with N > 1:
 * each worker would keep its own artifacts and cache, and a read could land on a worker that never saw them.
 */
export function serveThroughWorkers(workers: number, settings: Settings): boolean {
  if (cluster.isWorker || workers <= 1) return false;
  const core = settings.of(CoreSettings);
  if (core.MCP_TRANSPORT !== 'http') {
    throw new StartupError(
      `MCP_WORKERS=${workers} applies to the HTTP transport only: stdio serves the one client that started it. Add --transport http, or leave MCP_WORKERS at 1.`,
    );
  }
  if (/^memory:/i.test(core.MCP_STORE_URL)) {
    throw new StartupError(
      `MCP_WORKERS=${workers} needs a store the workers share, and MCP_STORE_URL is memory:// (each worker would keep its own artifacts, cache and approvals). ` +
        'Set MCP_STORE_URL=sqlite:///absolute/path.db (one host) or redis://host:6379 (replicas), or run one worker.',
    );
  }
  const logger = createLogger({ level: core.LOG_LEVEL, secrets: settings.secretValues(), destination: logDestination(settings) });
  // Scrapes land on any worker, which asks here for every worker's figures, summed.
  aggregateWorkerMetrics(logger);
  new ClusterPrimary(workers, logger).start();
  return true;
}

/** This process's identity as a `--workers` worker; undefined in the primary and in a server of one process. */
export function thisWorker(): WorkerIdentity | undefined {
  if (!cluster.isWorker) return undefined;
  const given = Number(process.env[SLOT_VARIABLE]);
  const slot = Number.isInteger(given) && given > 0 ? given : cluster.worker!.id;
  return {
    slot,
    logFields: { worker: slot },
    settings: (settings) => ownSettings(settings, slot),
  };
}

/**
 * A worker's values of the settings marked per worker (`perWorker`, such as MCP_AUDIT_WRITER): its slot after the
 * configured value (`w2`, or `eu1-w2` under eu1). A slot, not a pid: the primary gives a dead worker's slot to its
 * replacement only once it has exited, so what a slot names (an audit chain) has one writer at a time, a
 * restarted server continues the same N of them, and they do not pile up with every restart.
 */
export function ownSettings(settings: Settings, slot: number): Settings {
  const own = settings.entries().filter((s) => s.perWorker && typeof s.value === 'string');
  if (own.length === 0) return settings;
  return settings.with(Object.fromEntries(own.map((s) => [s.key, s.value === '' ? `w${slot}` : `${s.value as string}-w${slot}`])));
}

/**
 * In a worker: hands the bound URL to the primary, which announces the server once every worker listens.
 * Returns false outside a cluster, where the caller announces it itself.
 */
export function reportListeningToPrimary(url: string): boolean {
  if (!cluster.isWorker || process.send === undefined) return false;
  const message: ListeningMessage = { mcpDevtools: 'listening', url };
  process.send(message);
  return true;
}

/** Forks the workers, announces them, replaces one that dies, and drains them all on SIGINT or SIGTERM. */
class ClusterPrimary {
  private readonly listening = new Map<number, string>();
  /** Each worker's slot, by its cluster id. */
  private readonly slots = new Map<number, number>();
  private readonly restarts: number[] = [];
  private stopping = false;
  private announced = false;

  constructor(
    private readonly count: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    cluster.on('message', (worker, message: Partial<ListeningMessage>) => {
      if (message?.mcpDevtools === 'listening' && typeof message.url === 'string') this.onListening(worker, message.url);
    });
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    for (let slot = 1; slot <= this.count; slot++) this.fork(slot);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void this.stop(signal));
  }

  private fork(slot: number): Worker {
    // The same command line and environment: every worker resolves the configuration and opens the store
    // itself. Its slot is all that differs.
    const worker = cluster.fork({ [SLOT_VARIABLE]: String(slot) });
    this.slots.set(worker.id, slot);
    return worker;
  }

  private onListening(worker: Worker, url: string): void {
    this.listening.set(worker.id, url);
    if (this.announced || this.listening.size < this.count) return;
    this.announced = true;
    // Read by tests and scripts like a single server's line (written whatever LOG_LEVEL says).
    this.logger
      .child({}, { level: 'info' })
      .info({ url, workers: this.count, pids: Object.values(cluster.workers ?? {}).map((w) => w?.process.pid) }, `listening on ${url} (${this.count} workers)`);
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const everListened = this.listening.delete(worker.id);
    const slot = this.slots.get(worker.id)!;
    this.slots.delete(worker.id);
    if (this.stopping) return;
    if (!everListened) {
      // It could not start (its own reason is on stderr): the others would fail alike, so stop them all.
      this.logger.error({ pid: worker.process.pid, code, signal }, 'a worker exited before it listened; stopping every worker');
      process.exitCode = 1;
      void this.stop('worker start-up failure');
      return;
    }
    const now = Date.now();
    this.restarts.push(now);
    while (this.restarts.length > 0 && this.restarts[0]! < now - 60_000) this.restarts.shift();
    if (this.restarts.length > MAX_RESTARTS_PER_MINUTE) {
      this.logger.error({ restarts: this.restarts.length }, `workers keep dying (more than ${MAX_RESTARTS_PER_MINUTE} a minute); stopping every worker`);
      process.exitCode = 1;
      void this.stop('workers keep dying');
      return;
    }
    // Only now that it has exited: its replacement continues its audit chain, which has one writer at a time.
    this.logger.warn({ pid: worker.process.pid, worker: slot, code, signal }, 'a worker died; starting another in its place');
    this.fork(slot);
  }

  /** Each worker stops taking requests and finishes its calls in flight (MCP_SHUTDOWN_GRACE_MS); then this exits. */
  private async stop(why: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.logger.info({ why, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down every worker');
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    await Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', (code) => {
              if (code !== 0 && code !== null) process.exitCode = 1;
              resolve();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    process.exit();
  }
}
