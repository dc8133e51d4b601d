import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../../../core/errors/catalogue.js';
import type { ProgramLimits } from '../code-mode-settings.js';
import type { ProgramEnd, ProgramHost, ProgramRun } from './program-run.js';
import { limitStop, ProgramStop } from './program-stop.js';
import type { FromWorker, ToWorker, WireEnd } from './sandbox-messages.js';

/**
 * The worker's module: beside this one in the compiled sources (build/), an entry of its own in the bundle
 * (dist/code-sandbox.js, this module being in dist/chunks/).
 */
function workerFile(): URL {
  const candidates = [new URL('./sandbox-worker.js', import.meta.url), new URL('../code-sandbox.js', import.meta.url)];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (found === undefined) throw new Error(`the code-mode sandbox worker is missing (looked for ${candidates.map((u) => fileURLToPath(u)).join(', ')})`);
  return found;
}

/** How long past its wall time a worker may take to report a program's end before it is terminated. */
const WATCHDOG_GRACE_MS = 2_000;

interface PooledWorker {
  readonly worker: Worker;
  readonly haltFlag: Int32Array;
}

/**
 * Sandbox worker threads, at most `size` at once, each running one program at a time (a program that awaits its
 * tool calls holds its worker; more programs wait for one). Made when first needed, kept for the next program.
 * A worker that fails, or does not answer within its program's wall time, is terminated and replaced.
 */
export class SandboxPool {
  private readonly idle: PooledWorker[] = [];
  private live = 0;
  private readonly waiting: Array<(worker: PooledWorker) => void> = [];
  private closed = false;

  constructor(private readonly size: number) {}

  /**
   * Runs one program. `script` may still be being made (compiled): a thread that is free at once starts making
   * the program's sandbox meanwhile, and the program runs when its script is there. A script that rejects is
   * never run (its sandbox is dropped) and `run` rejects with its error.
   */
  async run(script: string | Promise<string>, host: ProgramHost, limits: ProgramLimits, signal: AbortSignal): Promise<ProgramRun> {
    const compiled = Promise.resolve(script);
    // Awaited below or in runOn; marked handled now, as it may reject before either gets to it.
    compiled.catch(() => undefined);
    // No thread free at once: the script first, so that a program that does not compile says so without waiting for one.
    const pooled = this.idle.pop() ?? (await compiled.then(() => this.acquire(signal)));
    if (pooled === undefined) {
      return { end: { kind: 'stopped', stop: limitStop.cancelled() }, startupMs: 0 };
    }
    let healthy = true;
    try {
      return await this.runOn(pooled, compiled, host, limits, signal, () => (healthy = false));
    } finally {
      this.release(pooled, healthy);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((p) => p.worker.terminate()));
  }

  private runOn(
    pooled: PooledWorker,
    script: Promise<string>,
    host: ProgramHost,
    limits: ProgramLimits,
    signal: AbortSignal,
    broken: () => void,
  ): Promise<ProgramRun> {
    const { worker, haltFlag } = pooled;
    return new Promise<ProgramRun>((resolve, reject) => {
      let halted: ProgramStop | undefined;
      let settled = false;
      const post = (message: ToWorker): void => worker.postMessage(message);
      const halt = (stop: ProgramStop): void => {
        if (halted !== undefined || settled) return;
        halted = stop;
        Atomics.store(haltFlag, 0, 1);
        post({ type: 'halt', stop: { code: stop.code, message: stop.message, ...(stop.meta && { meta: stop.meta }) } });
      };
      const detach = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(watchdog);
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onFailure);
        return true;
      };
      const finish = (end: ProgramEnd, startupMs: number): void => {
        if (detach()) resolve({ end: halted === undefined ? end : { kind: 'stopped', stop: halted }, startupMs });
      };
      const onMessage = (message: FromWorker): void => {
        if (message.type === 'call') {
          host.call(message.name, message.args).then(
            (reply) => !settled && post({ type: 'reply', callId: message.callId, reply }),
            (error: unknown) =>
              halt(error instanceof ProgramStop ? error : new ProgramStop('tool_failed', `A tool call failed in the server: ${(error as Error).message}`)),
          );
        } else if (message.type === 'print') host.print(message.line);
        else finish(fromWire(message.end), message.startupMs);
      };
      const onFailure = (error?: unknown): void => {
        broken();
        finish(
          {
            kind: 'stopped',
            stop: new ProgramStop('tool_failed', `The program's sandbox failed: ${error instanceof Error ? error.message : 'its thread ended'}.`),
          },
          0,
        );
      };
      const onAbort = (): void => halt(limitStop.cancelled());
      // A worker that does not report in time (it should never happen: QuickJS checks the clock as it runs) is
      // ended; the clock starts with the program, not with its compiling.
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const watch = (): void => {
        watchdog = setTimeout(() => {
          broken();
          void worker.terminate();
          finish({ kind: 'stopped', stop: limitStop.wall(limits.wallMs) }, 0);
        }, limits.wallMs + WATCHDOG_GRACE_MS);
      };
      worker.on('message', onMessage);
      worker.once('error', onFailure);
      worker.once('exit', onFailure);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      // The sandbox is made while the script is compiled; nothing of the program is in it before 'run'.
      post({ type: 'prepare', toolNames: host.toolNames, limits });
      script.then(
        (compiled) => {
          if (settled) return;
          if (halted === undefined) {
            watch();
            return post({ type: 'run', script: compiled, toolNames: host.toolNames, limits });
          }
          // Cancelled while it compiled: it never runs.
          post({ type: 'discard' });
          finish({ kind: 'stopped', stop: halted }, 0);
        },
        (error: unknown) => {
          if (settled) return;
          post({ type: 'discard' });
          if (detach()) reject(error as Error);
        },
      );
    });
  }

  private async acquire(signal: AbortSignal): Promise<PooledWorker | undefined> {
    const ready = this.idle.pop();
    if (ready !== undefined) return ready;
    if (this.live < this.size) {
      this.live += 1;
      try {
        return await spawn();
      } catch (error) {
        this.live -= 1;
        throw error;
      }
    }
    return new Promise((resolve) => {
      const take = (worker: PooledWorker): void => {
        signal.removeEventListener('abort', giveUp);
        resolve(worker);
      };
      const giveUp = (): void => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        resolve(undefined);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(take);
    });
  }

  private release(pooled: PooledWorker, healthy: boolean): void {
    if (!healthy || this.closed) {
      this.live -= 1;
      void pooled.worker.terminate();
      // A program waiting for a worker gets a new one in place of the one that failed.
      const next = this.waiting.shift();
      if (next !== undefined && !this.closed) {
        this.live += 1;
        void spawn().then(next, () => (this.live -= 1));
      }
      return;
    }
    const next = this.waiting.shift();
    if (next !== undefined) next(pooled);
    else this.idle.push(pooled);
  }
}

async function spawn(): Promise<PooledWorker> {
  const { Worker } = await import('node:worker_threads');
  const haltFlag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerFile(), { workerData: { haltFlag } });
  // An idle worker does not keep the process alive; a program in flight is awaited by its call anyway.
  worker.unref();
  return { worker, haltFlag };
}

function fromWire(end: WireEnd): ProgramEnd {
  return end.kind === 'stopped' ? { kind: 'stopped', stop: new ProgramStop(end.stop.code as ErrorCode, end.stop.message, end.stop.meta) } : end;
}
