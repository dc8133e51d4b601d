import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { ToolContext } from '../plugin/tool-context.js';
import { MAX_TEXT_CHARS } from '../result/text-limit.js';
import { tailOfLog } from './log-tail.js';
import { artifactSentence, saveForCaller } from './saved-artifact.js';

/**
 * The tail is kept this far under the model's text limit, leaving room for the header: truncation cuts the
 * end of a text, and the end of a log is where failures are, so the tail must never need cutting.
 */
export const TAIL_BUDGET_CHARS = MAX_TEXT_CHARS - 2_000;

export interface LogResultRequest {
  /** What the log is of, in a sentence: `job 42 of octo-org/octo-repo`. */
  where: string;
  /** `log`, `output`: the noun used in the header. */
  what: string;
  tailLines: number;
  /** The text the tail is taken from (the whole log, or a condensed form of it). */
  shown: string;
  /** What the artifact holds: the whole log. */
  whole: string;
  /** Lines placed after the header, before the tail (a summary of the steps shown). */
  notes?: string[];
}

/**
 * The text of a log tool: a header saying how much is shown and naming the artifact that holds the whole
 * log, then the last lines. Saving the artifact may fail (a store outage); the tail is still returned, and
 * says so.
 */
export async function logResultText(ctx: ToolContext, artifacts: ArtifactStore, request: LogResultRequest): Promise<string> {
  const { where, what, tailLines } = request;
  const tail = tailOfLog(request.shown, tailLines, TAIL_BUDGET_CHARS);
  const saved = await saveForCaller(ctx, artifacts, 'text/plain', request.whole, what);
  const lines: string[] = [];
  if (tail.total === 0) {
    lines.push(`The ${what} of ${where} is empty.`);
  } else {
    const fit = tail.clipped ? ` (tailLines ${tailLines} would not fit in ${TAIL_BUDGET_CHARS} characters)` : '';
    const which = tail.shown === tail.total ? `all ${tail.total} lines` : `the last ${tail.shown} of ${tail.total} lines${fit}`;
    lines.push(`${what[0]!.toUpperCase()}${what.slice(1)} of ${where}: ${which}.`);
  }
  lines.push(...(request.notes ?? []));
  if (saved !== undefined) {
    lines.push(artifactSentence(saved, what, 'text/plain'));
  } else {
    lines.push(`The whole ${what} could not be saved as an artifact; only the lines below are available. Try again later for the rest.`);
  }
  if (tail.total > 0) lines.push('---', tail.text);
  return lines.join('\n');
}
