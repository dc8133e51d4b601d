import Type from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import { pollUntilFinished } from '../../core/vendor/run-wait.js';
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

/**
 * Polls without any check before the wait ends: CI registers its checks within seconds of a push, so a commit
 * with none after these (2.5 minutes at the default interval) has no CI to wait for.
 */
const POLLS_FOR_A_FIRST_CHECK = 5;

/**
 * Waits until every check of a commit has finished, polling its host (core's pollUntilFinished: backoff,
 * progress as checks finish, cancellation). No check yet: CI may not have picked the commit up; keep waiting
 * for the first, a few polls.
 */
export function waitForChecks(ctx: AnyToolContext, deps: CiDeps, target: CommitRef, timeoutMs: number): Promise<{ value: CommitChecks; finished: boolean }> {
  return pollUntilFinished(ctx, { firstIntervalMs: deps.pollMs, timeoutMs, unit: 'check' }, async (poll) => {
    const checks = await commitChecks(ctx, deps, target);
    const pending = pendingOf(checks);
    const total = checks.checks.total;
    return { value: checks, total, pending, finished: total > 0 && pending.length === 0, giveUp: total === 0 && poll >= POLLS_FOR_A_FIRST_CHECK };
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
    const { value: checks, finished } = await waitForChecks(ctx, deps, ctx.args, seconds * 1000);
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
