import Type from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import type { CiDeps } from './ci-deps.js';
import { commitChecks, pendingOf, reportOf, type CommitChecks, type CommitRef } from './collect-report.js';
import { CI_READS, commitArgs, MAX_EXCERPTS, READ } from './commit-args.js';
import { renderReport } from './report.js';

export const WaitArgs = Type.Object(
  {
    ...commitArgs,
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 600, default: 300, description: 'Longest wait, at most 600.' })),
  },
  { additionalProperties: false },
);

/** Longest interval between two polls: a build that takes an hour is still seen finishing within a minute. */
const MAX_POLL_MS = 60_000;

/**
 * Polls without any check before the wait ends: CI registers its checks within seconds of a push, so a commit
 * with none after these (2.5 minutes at the default interval) has no CI to wait for.
 */
const POLLS_FOR_A_FIRST_CHECK = 5;

/**
 * Waits until every check of a commit has finished, polling its host: the interval starts at CI_WAIT_POLL_MS
 * and doubles while nothing changes (back to the start when a check finishes), so a long build costs few
 * requests. Each finished check is reported as progress. A client's cancellation (or the server's shutdown)
 * ends the wait at once.
 */
export async function waitForChecks(
  ctx: AnyToolContext,
  deps: CiDeps,
  target: CommitRef,
  timeoutMs: number,
): Promise<{ checks: CommitChecks; finished: boolean }> {
  const deadline = Date.now() + timeoutMs;
  let interval = deps.pollMs;
  let lastPending: string | undefined;
  for (let poll = 1; ; poll++) {
    const checks = await commitChecks(ctx, deps, target);
    const pending = pendingOf(checks);
    const total = checks.checks.total;
    // No check yet: CI may not have picked the commit up; keep waiting for the first.
    const finished = total > 0 && pending.length === 0;
    const key = `${total}:${pending.join('\u0000')}`;
    if (key !== lastPending) {
      ctx.progress(
        total - pending.length,
        Math.max(total, 1),
        finished
          ? `all ${total} checks finished`
          : `${total - pending.length} of ${total} checks finished; waiting for ${pending.slice(0, 5).join(', ') || 'the first check'}`,
      );
      interval = deps.pollMs;
    } else {
      interval = Math.min(interval * 2, MAX_POLL_MS);
    }
    lastPending = key;
    const left = deadline - Date.now();
    if (finished || left <= 0 || (total === 0 && poll >= POLLS_FOR_A_FIRST_CHECK)) return { checks, finished };
    await sleep(Math.min(interval, left), ctx.signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = (): void => {
      clearTimeout(timer);
      reject(new ToolError('cancelled', 'The wait was cancelled.'));
    };
    if (signal.aborted) return cancelled();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cancelled);
      resolve();
    }, ms);
    signal.addEventListener('abort', cancelled, { once: true });
  });
}

export const WAIT = defineTool({
  name: 'ci_wait',
  toolset: 'ci',
  title: 'Wait for CI',
  description:
    "Wait until a commit's CI finishes (up to timeoutSeconds), with progress as checks finish; cancellable. " +
    'Answers the final status and, on failure, the ci_failure_report.',
  annotations: READ,
  input: WaitArgs,
  savesArtifacts: true,
  further: CI_READS,
  // A client with the tasks extension gets a task at once and polls it; the wait runs detached.
  detachable: true,
  handler: async (ctx, deps: CiDeps) => {
    const seconds = ctx.args.timeoutSeconds ?? 300;
    const { checks, finished } = await waitForChecks(ctx, deps, ctx.args, seconds * 1000);
    const options = { contextLines: ctx.args.contextLines ?? 6, maxExcerpts: MAX_EXCERPTS };
    const report = await reportOf(ctx, deps, ctx.args, checks, options);
    const status =
      checks.checks.total === 0
        ? 'No check has started on this commit: its CI may not be configured, or has not picked it up yet.'
        : !finished
          ? `Still running after ${seconds} s: call ci_wait again to keep waiting.`
          : report.failures.length === 0
            ? `CI finished: all ${checks.checks.total} checks passed.`
            : 'CI finished with failures.';
    return { text: `${status}\n${renderReport(report)}` };
  },
});
