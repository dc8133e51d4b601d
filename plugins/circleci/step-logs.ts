import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { isToolError } from '../../core/errors/tool-error.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { cleanTerminalOutput, collapseRepeatedLines } from '../../core/vendor/clean-log.js';
import { logResultText } from '../../core/vendor/log-result.js';
import { actionHeading, chooseActions, type SelectedAction, type V1JobDetail } from './job-steps.js';
import type { StepOutputReader } from './step-output.js';

export interface StepLogsRequest {
  projectSlug: string;
  jobNumber: number;
  step?: number | string;
  failedOnly: boolean;
  tailLines: number;
}

/** Output URLs fetched at once: a parallel job has one per container and step. */
const CONCURRENT_OUTPUTS = 4;

/**
 * The text of circleci_logs from a job's v1.1 detail: each chosen action's output under a heading, escape codes
 * stripped; the tail shown with repeated lines collapsed, the whole (uncollapsed) output saved as an artifact.
 * An output that cannot be read is named in its place rather than failing the others.
 */
export async function stepLogsText(
  ctx: ToolContext,
  deps: { outputs: StepOutputReader; artifacts: ArtifactStore; scrub: Scrub },
  request: StepLogsRequest,
  detail: V1JobDetail,
): Promise<string> {
  const job = `job ${request.jobNumber} of ${request.projectSlug}`;
  const choice = chooseActions(detail, request.step, request.failedOnly);
  if ('unmatched' in choice) return `${capitalised(job)}: ${choice.unmatched}`;
  const { selected } = choice;
  if (selected.length === 0) {
    const status = detail.status === undefined ? '' : ` (status ${detail.status})`;
    return `${capitalised(job)}${status} has no failed steps. Pass failedOnly: false for the output of every step.`;
  }
  const outputs = await readOutputs(ctx, deps.outputs, selected);
  const whole = deps.scrub(selected.map((s, i) => `${actionHeading(s)}\n${outputs[i]}`).join(''));
  const which = request.step !== undefined ? `step ${JSON.stringify(request.step)}` : request.failedOnly ? 'the failed steps' : 'every step';
  const steps = [...new Map(selected.map((s) => [s.stepNumber, `${s.stepNumber} ${JSON.stringify(s.stepName)}`])).values()];
  return logResultText(ctx, deps.artifacts, {
    where: `${which} of ${job}`,
    what: 'output',
    tailLines: request.tailLines,
    shown: collapseRepeatedLines(whole),
    whole,
    notes: [`Steps shown: ${steps.join(', ')}. Escape codes are stripped; repeated lines are collapsed in the lines below, not in the artifact.`],
  });
}

async function readOutputs(ctx: ToolContext, reader: StepOutputReader, selected: SelectedAction[]): Promise<string[]> {
  const outputs: string[] = new Array<string>(selected.length);
  let read = 0;
  for (let start = 0; start < selected.length; start += CONCURRENT_OUTPUTS) {
    const batch = selected.slice(start, start + CONCURRENT_OUTPUTS);
    await Promise.all(
      batch.map(async (s, i) => {
        outputs[start + i] = await outputOf(ctx, reader, s);
        ctx.progress(++read, selected.length, 'reading the output of each step');
      }),
    );
  }
  return outputs;
}

async function outputOf(ctx: ToolContext, reader: StepOutputReader, s: SelectedAction): Promise<string> {
  const url = s.action.output_url;
  if (typeof url !== 'string' || url === '' || s.action.has_output === false) return '(no output)\n';
  try {
    const text = cleanTerminalOutput(await reader.read(ctx, url));
    return text.endsWith('\n') || text === '' ? text : `${text}\n`;
  } catch (error) {
    if (!isToolError(error) || error.code === 'cancelled') throw error;
    return `(the output could not be read: ${error.message})\n`;
  }
}

const capitalised = (text: string): string => `${text[0]!.toUpperCase()}${text.slice(1)}`;
