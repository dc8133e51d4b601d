import type { ArtifactStore, SavedArtifact } from '../../core/artifacts/artifact-store.js';
import type { ToolContext } from '../../core/pipeline/call-context.js';
import { MAX_TEXT_CHARS } from '../truncation/truncate-text.js';
import { tailOfLog } from './log-tail.js';

/**
 * The tail is kept this far under the model's text limit, leaving room for the header: truncation cuts the
 * end of a text, and the end of a log is where failures are, so the tail must never need cutting.
 */
export const TAIL_BUDGET_CHARS = MAX_TEXT_CHARS - 2_000;

export interface JobLogRequest {
  owner: string;
  repo: string;
  jobId: number;
  tailLines: number;
}

/**
 * The text of github_get_job_logs: a header naming how much is shown and the artifact holding the whole log,
 * then the last lines. Saving the artifact may fail (a store outage); the tail is still returned, and says so.
 */
export async function jobLogText(ctx: ToolContext, artifacts: ArtifactStore, request: JobLogRequest, log: string): Promise<string> {
  const tail = tailOfLog(log, request.tailLines, TAIL_BUDGET_CHARS);
  const saved = await saveWholeLog(ctx, artifacts, log);
  const where = `job ${request.jobId} of ${request.owner}/${request.repo}`;
  const lines: string[] = [];
  if (tail.total === 0) {
    lines.push(`The log of ${where} is empty.`);
  } else {
    const fit = tail.clipped ? ` (tailLines ${request.tailLines} would not fit in ${TAIL_BUDGET_CHARS} characters)` : '';
    const which = tail.shown === tail.total ? `all ${tail.total} lines` : `the last ${tail.shown} of ${tail.total} lines${fit}`;
    lines.push(`Log of ${where}: ${which}.`);
  }
  if (saved !== undefined) {
    lines.push(`The whole log (${saved.bytes} bytes, text/plain) is artifact ${saved.artifactId}: read it with artifact_read, artifactId "${saved.artifactId}".`);
  } else {
    lines.push('The whole log could not be saved as an artifact; only the lines below are available. Try again later for the rest.');
  }
  if (tail.total > 0) lines.push('---', tail.text);
  return lines.join('\n');
}

async function saveWholeLog(ctx: ToolContext, artifacts: ArtifactStore, log: string): Promise<SavedArtifact | undefined> {
  try {
    return await artifacts.save(ctx.principal, 'text/plain', log);
  } catch (error) {
    // Never fail the call for it: the tail alone is often all that is needed.
    ctx.logger.warn({ err: error, tool: ctx.toolName }, 'could not save the whole job log as an artifact');
    return undefined;
  }
}
