import Type from 'typebox';
import { ToolError } from '../errors/tool-error.js';
import type { AnyToolContext } from '../plugin/tool-context.js';
import { sleep } from '../http/retry-policy.js';

// Waiting for CI to finish, shared by ci_wait and the vendor tools that start a run (`wait: true`): the polling,
// its backoff and its progress live here once; each tool says how to read its run once.

/** The first interval between two polls, declared alike by every plugin that waits (the settings cascade refuses a clash). */
export const WaitPollSetting = {
  CI_WAIT_POLL_MS: Type.Integer({
    minimum: 10,
    default: 10_000,
    description:
      'First interval between two polls of ci_wait (and of the writes with wait: true), in milliseconds; it doubles up to 60 s while nothing changes.',
  }),
};

/**
 * The arguments a tool that starts a run takes to wait for it: one fragment, so five tools cost few tokens.
 * `timeoutSeconds` declares no default (DEFAULT_WAIT_SECONDS applies): a default would make every call of these
 * tools go through TypeBox's Value.Default, which throws on bb_run_pipeline's `variables` record when a name is
 * refused, before the refusal can be said.
 */
export const RunWaitArgs = {
  wait: Type.Optional(Type.Boolean({ description: 'Wait for the run to finish (as ci_wait).' })),
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 600 })),
};

/** Such a tool answers with a task (to a client that declares the tasks extension) only when it waits. */
export const detachableWhenWaiting = (args: Readonly<Record<string, unknown>>): boolean => args.wait === true;

/** The longest wait when `timeoutSeconds` is not given. */
export const DEFAULT_WAIT_SECONDS = 300;

/** Longest interval between two polls: a build that takes an hour is still seen finishing within a minute. */
const MAX_POLL_MS = 60_000;

/** What one poll read: the `units` (checks, jobs) counted, those not finished by name, and whether all are. */
export interface PollReading<T> {
  value: T;
  total: number;
  pending: readonly string[];
  finished: boolean;
  /** Nothing to wait for (no check ever appeared): stop now, unfinished. */
  giveUp?: boolean;
}

export interface PollOptions {
  /** First interval between two polls (CI_WAIT_POLL_MS). */
  firstIntervalMs: number;
  timeoutMs: number;
  /** What is counted, singular: `check`, `job`. */
  unit: string;
}

/**
 * Polls until what `pollOnce` reads has finished or the time is up: the interval starts at `firstIntervalMs` and
 * doubles while nothing changes (back to the start when something finishes), so a long build costs few requests.
 * Each change is reported as progress. A client's cancellation (or the server's shutdown) ends the wait at once.
 */
export async function pollUntilFinished<T>(
  ctx: AnyToolContext,
  options: PollOptions,
  pollOnce: (poll: number) => Promise<PollReading<T>>,
): Promise<{ value: T; finished: boolean }> {
  const deadline = Date.now() + options.timeoutMs;
  const units = `${options.unit}s`;
  let interval = options.firstIntervalMs;
  let last: string | undefined;
  for (let poll = 1; ; poll++) {
    const reading = await pollOnce(poll);
    const { total, pending, finished } = reading;
    const key = `${finished}:${total}:${pending.join('\u0000')}`;
    if (key !== last) {
      ctx.progress(
        total - pending.length,
        Math.max(total, 1),
        finished
          ? `all ${total} ${units} finished`
          : `${total - pending.length} of ${total} ${units} finished; waiting for ${pending.slice(0, 5).join(', ') || `the first ${options.unit}`}`,
      );
      interval = options.firstIntervalMs;
    } else {
      interval = Math.min(interval * 2, MAX_POLL_MS);
    }
    last = key;
    const left = deadline - Date.now();
    if (finished || left <= 0 || reading.giveUp === true) return { value: reading.value, finished };
    await sleep(Math.min(interval, left), ctx.signal).catch(() => {
      throw new ToolError('cancelled', 'The wait was cancelled.');
    });
  }
}

/** The sentence of a wait that ran out of time. */
export const stillRunning = (seconds: number, again: string): string => `Still running after ${seconds} s: ${again}`;
