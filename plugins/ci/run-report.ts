import type { UpstreamClient } from '../../core/http/upstream-client.js';
import { resourceKey, type Provenance } from '../../core/plugin/provenance.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { FailureReporter, RunReport, WaitedRun } from '../../core/vendor/failure-reporter.js';
import { pipelineFailures } from './bitbucket-failures.js';
import type { CiDeps, LogOptions } from './ci-deps.js';
import { circleciFailure } from './circleci-failures.js';
import { MAX_EXCERPTS } from './commit-args.js';
import { actionsFailure, githubChecks, type CheckRun } from './github-failures.js';
import { renderReport, type JobFailure } from './report.js';

// The failure report of the one run a write waited on (`wait: true`), for the vendor plugins through
// TOKENS.FailureReporter: the failed jobs of that run only (not the commit's other checks), each read as
// ci_failure_report reads it, with ci_wait's excerpt limits, through the write tool's own client.

/** As ci_wait's default: the lines around each error, and at most MAX_EXCERPTS of them per log. */
const OPTIONS: LogOptions = { contextLines: 6, maxExcerpts: MAX_EXCERPTS };

export function runReporter(deps: CiDeps): FailureReporter {
  return {
    reportRun: async (ctx: ToolContext, run: WaitedRun): Promise<RunReport> => {
      const own = withClient(deps, run.vendor, run.client);
      const { subject, resource, failures } = await failuresOf(ctx, own, run);
      const vendor = { github: 'GitHub', circleci: 'CircleCI', bitbucket: 'Bitbucket' }[run.vendor];
      const summary = `${failures.length} failed job${failures.length === 1 ? '' : 's'} of it read on ${vendor}`;
      return { text: renderReport({ subject, summary, failures, pending: [] }), provenance: logLabel(subject, resource) };
    },
  };
}

async function failuresOf(ctx: ToolContext, deps: CiDeps, run: WaitedRun): Promise<{ subject: string; resource: string; failures: JobFailure[] }> {
  if (run.vendor === 'github') {
    // The commit's checks say which job passed on another run (flaky) and which has annotations.
    const checks = await githubChecks(ctx, run.client, run.repo, run.sha);
    const failures = await Promise.all(
      run.jobs.map((job) => {
        const check: CheckRun = checks.failed.find((c) => c.id === job.id) ?? {
          id: job.id,
          name: job.name,
          status: 'completed',
          conclusion: job.conclusion,
          html_url: job.url,
        };
        return actionsFailure(ctx, deps, run.repo, check, checks, OPTIONS);
      }),
    );
    return { subject: `${run.repo} run ${run.runId} at ${run.sha.slice(0, 12)}`, resource: resourceKey('github', run.repo), failures };
  }
  if (run.vendor === 'circleci') {
    const failures = await Promise.all(run.jobs.map((j) => circleciFailure(ctx, deps, { slug: j.projectSlug, number: j.jobNumber }, j.name, OPTIONS)));
    const slug = run.jobs[0]?.projectSlug ?? 'CircleCI';
    return { subject: `${slug}, the workflows waited on`, resource: resourceKey('circleci', slug), failures };
  }
  const failures = await pipelineFailures(ctx, deps, run.repo, { uuid: run.pipeline.uuid, build_number: run.pipeline.buildNumber }, OPTIONS);
  return { subject: `${run.repo} pipeline #${run.pipeline.buildNumber}`, resource: resourceKey('bitbucket', run.repo), failures };
}

/** The ci plugin's deps with the write tool's client for the vendor: its host, credential and request gate. */
const withClient = (deps: CiDeps, vendor: WaitedRun['vendor'], client: UpstreamClient): CiDeps => ({
  ...deps,
  clients: { ...deps.clients, [vendor]: client },
});

/** Build logs: whose code they built is not looked up (a fork's is untrusted), nor the repository's visibility. */
function logLabel(subject: string, resource: string): Provenance {
  return {
    labels: [
      {
        item: `${subject} (CI failure report)`,
        resource,
        integrity: 'untrusted',
        confidentiality: 'private',
        assumed: true,
        author: null,
        why: 'quotes build logs; whether a build was of a fork is not looked up; repository visibility not looked up',
        at: [],
        fields: [],
      },
    ],
    warnings: [],
  };
}
