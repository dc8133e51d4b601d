import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ToolError, isToolError } from '../../core/errors/tool-error.js';
import type { UpstreamRequest } from '../../core/plugin/upstream-types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import { advisedTool, type HandlerContext } from '../../core/plugin/tool-context.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { cleanTerminalOutput, collapseRepeatedLines } from '../../core/vendor/clean-log.js';
import { logResultText } from '../../core/vendor/log-result.js';
import { pipelinePath, uuidSegment } from './repo-args.js';

/** A pipeline step, as Bitbucket lists it. */
interface Step {
  uuid?: unknown;
  name?: unknown;
  state?: { name?: unknown; result?: { name?: unknown } };
}

const DEFAULT_TAIL_LINES = 500;
/** Step results that failed the pipeline. */
const FAILED = new Set(['FAILED', 'ERROR']);

const stateOf = (step: Step): string =>
  [step.state?.name, step.state?.result?.name].filter((s): s is string => typeof s === 'string' && s !== '').join(', ') || 'no state';
const nameOf = (step: Step, index: number): string => (typeof step.name === 'string' && step.name !== '' ? step.name : `step ${index + 1}`);

/**
 * The step whose log to show when none was named: the first that failed, else the last that started (a pending
 * step has no log yet), else the first.
 */
export function chooseStep(steps: Step[]): number {
  const failed = steps.findIndex((s) => FAILED.has(String(s.state?.result?.name ?? '')));
  if (failed >= 0) return failed;
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.state?.name !== 'PENDING') return i;
  return 0;
}

/** The step asked for: bb_get_pipeline_step_log's arguments. */
export type StepLogRequest = {
  workspace: string;
  repoSlug: string;
  pipelineUuid: string;
  stepUuid?: string;
  tailLines?: number;
};

export interface StepLogDeps {
  artifacts: ArtifactStore;
  scrub: Scrub;
  maxBytes: number;
}

/**
 * bb_get_pipeline_step_log: the named step's log (the route), or, without a step, the pipeline's steps (the route)
 * and then the log of the one chooseStep picks. Bitbucket answers a finished step's log with a redirect to its
 * storage on another host: followed without the credentials. The tail is shown, the whole log saved.
 */
export async function stepLogText(ctx: HandlerContext<StepLogRequest>, bitbucket: UpstreamClient, deps: StepLogDeps): Promise<string> {
  const { args } = ctx;
  const pipeline = `pipeline ${args.pipelineUuid} of ${args.workspace}/${args.repoSlug}`;
  let logRoute: UpstreamRequest = ctx.route;
  let step = `step ${args.stepUuid}`;
  const notes: string[] = [];
  if (args.stepUuid === undefined) {
    const page = (await bitbucket.send(ctx, ctx.route, { expect: 'json' })).body as { values?: unknown };
    const steps = (Array.isArray(page?.values) ? page.values : []) as Step[];
    if (steps.length === 0) return `The ${pipeline} has no steps yet: it may still be starting. Try again shortly.`;
    const chosen = chooseStep(steps);
    const uuid = steps[chosen]!.uuid;
    if (typeof uuid !== 'string') throw new ToolError('upstream_invalid_body', `Bitbucket listed a step of the ${pipeline} without its uuid.`);
    step = `step ${JSON.stringify(nameOf(steps[chosen]!, chosen))}`;
    logRoute = { method: 'GET', path: `${pipelinePath(args)}/steps/${uuidSegment(uuid)}/log` };
    const listed = steps.map((s, i) => `${i + 1} ${JSON.stringify(nameOf(s, i))} (${stateOf(s)})${i === chosen ? ' <- shown' : ''}`);
    notes.push(`Steps: ${listed.join(', ')}. Another step: pass its stepUuid (${await advisedTool(ctx, 'bb_get')} ".../pipelines/{uuid}/steps").`);
  }
  let raw: string;
  try {
    const progress = `reading the log of ${step} of the ${pipeline}`;
    raw = (await bitbucket.send(ctx, logRoute, { expect: 'text', followForeignRedirectWithoutAuth: true, progress })).text;
  } catch (error) {
    throw explained(error, `${step} of the ${pipeline}`, deps.maxBytes);
  }
  const whole = deps.scrub(cleanTerminalOutput(raw));
  return logResultText(ctx, deps.artifacts, {
    where: `${step} of ${pipeline}`,
    what: 'log',
    tailLines: args.tailLines ?? DEFAULT_TAIL_LINES,
    shown: collapseRepeatedLines(whole),
    whole,
    notes: [...notes, 'Escape codes are stripped; repeated lines are collapsed in the lines below, not in the artifact.'],
  });
}

/** A missing log usually means a step that has not run; a log too large to read cannot be asked for in parts. */
function explained(error: unknown, what: string, maxBytes: number): unknown {
  if (!isToolError(error)) return error;
  if (error.code === 'upstream_too_large')
    return new ToolError(
      'upstream_too_large',
      `The log of ${what} is larger than MCP_MAX_RESPONSE_BYTES (${maxBytes} bytes), so it was not read. Have MCP_MAX_RESPONSE_BYTES raised to read logs this large.`,
    );
  if (error.status === 404)
    return new ToolError(error.code, `${error.message} A step that has not started yet has no log.`, {
      status: error.status,
      upstreamBody: error.upstreamBody,
      cause: error,
    });
  return error;
}
