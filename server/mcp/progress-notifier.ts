import type { ProgressNotificationParams, ProgressToken } from '@modelcontextprotocol/server';
import { noProgress, type ProgressReporter } from '../../core/plugin/tool-context.js';

/** At most one notification per this many milliseconds per call, besides the first and each step's last. */
export const PROGRESS_INTERVAL_MS = 100;

export interface ProgressNotifierOptions {
  /** Sends one `notifications/progress` on the request's own channel (`ctx.mcpReq.notify`). */
  send(params: ProgressNotificationParams): Promise<void>;
  intervalMs?: number;
  now?: () => number;
}

/**
 * The progress reporter of one tool call whose request carried `_meta.progressToken` (no token: nothing is
 * sent). Reports become `notifications/progress` at a bounded rate: the first, then at most one per
 * `intervalMs`, and always the one that completes a step of known size, so a download read in a thousand
 * network chunks costs a handful of notifications. The protocol wants `progress` to grow with every
 * notification; a call reports several steps (bytes downloaded, then bytes saved), each counting from 0, so
 * a step that starts over is counted after the previous one: `progress` and `total` are the units of the
 * call's steps so far, and `message` says which step it is in.
 */
export function progressNotifier(token: ProgressToken | undefined, options: ProgressNotifierOptions): ProgressReporter {
  if (token === undefined) return noProgress;
  const interval = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const now = options.now ?? (() => performance.now());
  /** The units of the steps before this one. */
  let base = 0;
  /** The current step's latest `done`, and its announced size. */
  let stepDone = 0;
  let stepTotal: number | undefined;
  let lastSent = -1;
  let lastSentAt = -Infinity;
  return (done, total, message) => {
    if (!Number.isFinite(done) || done < 0) return;
    const size = total !== undefined && Number.isFinite(total) && total >= 0 ? total : undefined;
    if (done < stepDone) base += Math.max(stepDone, stepTotal ?? 0);
    stepDone = done;
    stepTotal = size;
    const progress = base + done;
    const finished = size !== undefined && done >= size;
    const at = now();
    if (progress <= lastSent || (!finished && lastSent >= 0 && at - lastSentAt < interval)) return;
    lastSent = progress;
    lastSentAt = at;
    const params: ProgressNotificationParams = { progressToken: token, progress };
    if (size !== undefined) params.total = Math.max(base + size, progress);
    if (message !== undefined) params.message = message;
    // A notification that cannot be sent (the client left) changes nothing about the call.
    void options.send(params).catch(() => {});
  };
}
