import Type from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { CiDeps } from './ci-deps.js';
import { commitChecks, reportOf } from './collect-report.js';
import { CI_READS, commitArgs, MAX_EXCERPTS, READ } from './commit-args.js';
import { renderReport } from './report.js';
import { reportLabel } from './report-label.js';

export const FailureReportArgs = Type.Object(commitArgs, { additionalProperties: false });

export const FAILURE_REPORT = defineTool({
  name: 'ci_failure_report',
  toolset: 'ci',
  title: 'Why did CI fail?',
  description:
    "Why a commit's CI failed, in one call across GitHub Actions, CircleCI and Bitbucket Pipelines: per failed job its step, " +
    'log lines around the first errors, failed tests (flaky marked), and the whole log as an artifact.',
  annotations: READ,
  input: FailureReportArgs,
  savesArtifacts: true,
  // It quotes build logs: labelled by whose code they built (report-label.ts).
  provenance: { labels: true },
  further: CI_READS,
  handler: async (ctx, deps: CiDeps) => {
    const options = { contextLines: ctx.args.contextLines ?? 6, maxExcerpts: MAX_EXCERPTS };
    const checks = await commitChecks(ctx, deps, ctx.args);
    return { text: renderReport(await reportOf(ctx, deps, ctx.args, checks, options)), provenance: reportLabel(ctx.args, checks) };
  },
});
