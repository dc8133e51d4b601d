import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import { quotingNothing, withRunReport, type LabelledOutcome } from '../../core/vendor/failure-reporter.js';
import { DEFAULT_WAIT_SECONDS, pollUntilFinished, stillRunning } from '../../core/vendor/run-wait.js';
import type { BitbucketDeps } from './bitbucket-deps.js';
import { pipelinePath } from './repo-args.js';

// `wait: true` on bb_run_pipeline: poll the pipeline it started and its steps until it completes.

interface State {
  name?: string;
  result?: { name?: string };
}
interface Pipeline {
  build_number?: number;
  state?: State;
}
interface Step {
  uuid?: string;
  name?: string;
  state?: State;
}

/** Step results that failed the pipeline (as bb_get_pipeline_step_log reads them). */
const FAILED = new Set(['FAILED', 'ERROR']);

/**
 * The reads a wait sends: the pipeline and its steps (any pipeline of the repository: its uuid comes from the
 * answer); on failure, what the failure report reads of each failed step (its log, its failed tests and their reasons).
 */
export const pipelineReads = (args: { workspace: string; repoSlug: string }): FurtherRoute[] => {
  const path = pipelinePath({ ...args, pipelineUuid: 'x' }).replace(/\/[^/]+$/, '/*');
  return [
    { method: 'GET', path },
    { method: 'GET', path: `${path}/steps` },
    { method: 'GET', path: `${path}/steps/*/log` },
    { method: 'GET', path: `${path}/steps/*/test_reports/test_cases` },
    { method: 'GET', path: `${path}/steps/*/test_reports/test_cases/*/test_case_reasons` },
  ];
};

export interface PipelineOutcome {
  status: string;
  result: string | null;
  failedSteps?: Array<{ name: string; result: string; log: { tool: 'bb_get_pipeline_step_log'; arguments: Record<string, unknown> } | null }>;
  /** The failure report of the failed steps (core/vendor/failure-reporter.ts), or why there is none. */
  failureReport?: string;
}

/** Waits for pipeline `pipelineUuid` to complete, then says how it ended and which steps failed. */
export async function waitForPipeline(
  ctx: ToolContext,
  bitbucket: BitbucketDeps,
  where: { workspace: string; repoSlug: string; pipelineUuid: string },
  timeoutSeconds = DEFAULT_WAIT_SECONDS,
): Promise<LabelledOutcome<PipelineOutcome>> {
  const path = pipelinePath(where);
  const { value, finished } = await pollUntilFinished(ctx, { firstIntervalMs: bitbucket.pollMs, timeoutMs: timeoutSeconds * 1000, unit: 'step' }, async () => {
    const pipeline = (await bitbucket.upstream.send(ctx, { method: 'GET', path }, { expect: 'json' })).body as Pipeline | null;
    // An answer with no state is not a pipeline: polling it again would only wait out the whole timeout.
    if (typeof pipeline?.state?.name !== 'string')
      throw new ToolError('upstream_invalid_body', `Bitbucket answered pipeline ${where.pipelineUuid} with no state: the wait ended.`);
    const page = (await bitbucket.upstream.send(ctx, { method: 'GET', path: `${path}/steps` }, { expect: 'json' })).body as { values?: Step[] } | null;
    const steps = Array.isArray(page?.values) ? page.values : [];
    const pending = steps.filter((s) => s.state?.name !== 'COMPLETED').map((s, i) => s.name ?? `step ${i + 1}`);
    return { value: { pipeline, steps }, total: steps.length, pending, finished: pipeline?.state?.name === 'COMPLETED' };
  });
  if (!finished) return quotingNothing({ status: stillRunning(timeoutSeconds, 'follow it with bb_list_pipelines.'), result: null });
  const result = value.pipeline?.state?.result?.name ?? null;
  if (result === 'SUCCESSFUL') return quotingNothing({ status: 'The pipeline finished: SUCCESSFUL.', result });
  const failedSteps = value.steps
    .filter((s) => FAILED.has(s.state?.result?.name ?? ''))
    .map((s) => ({
      name: s.name ?? '',
      result: s.state?.result?.name ?? '',
      log:
        typeof s.uuid === 'string'
          ? {
              tool: 'bb_get_pipeline_step_log' as const,
              arguments: { workspace: where.workspace, repoSlug: where.repoSlug, pipelineUuid: where.pipelineUuid, stepUuid: s.uuid },
            }
          : null,
    }));
  const outcome: PipelineOutcome = { status: `The pipeline finished: ${result ?? 'no result'}.`, result, failedSteps };
  const buildNumber = value.pipeline?.build_number;
  if (failedSteps.length === 0 || typeof buildNumber !== 'number') return quotingNothing(outcome);
  return withRunReport(ctx, bitbucket.services, outcome, {
    vendor: 'bitbucket',
    client: bitbucket.upstream,
    repo: `${where.workspace}/${where.repoSlug}`,
    pipeline: { uuid: where.pipelineUuid, buildNumber },
  });
}
