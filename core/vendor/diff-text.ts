import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { ToolContext } from '../plugin/tool-context.js';
import { TAIL_BUDGET_CHARS } from './log-result.js';
import { artifactSentence, saveForCaller } from './saved-artifact.js';

/** Files named when a diff is cut: enough to know what is missing, few enough to stay short. */
const FILES_LISTED = 40;

export interface DiffSummary {
  files: string[];
  added: number;
  removed: number;
}

/** The files a unified diff changes (from `diff --git a/... b/...`) and its added and removed lines. */
export function summariseDiff(diff: string): DiffSummary {
  const files: string[] = [];
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) files.push(/ b\/(.*)$/.exec(line)?.[1] ?? line.slice(11));
    else if (line.startsWith('+') && !line.startsWith('+++ ')) added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++;
  }
  return { files, added, removed };
}

/**
 * The text of a pull request diff tool (GitHub's, Bitbucket's): a summary line, then the diff. A diff longer than the model's share
 * of the text limit is cut at a line end, says which files it no longer shows, and is saved whole as an
 * artifact (the model reads the rest with artifact_read instead of losing it to truncation).
 */
export async function diffText(ctx: ToolContext, artifacts: ArtifactStore, where: string, diff: string): Promise<string> {
  if (diff.trim() === '') return `The diff of ${where} is empty: it changes nothing.`;
  const { files, added, removed } = summariseDiff(diff);
  const header = `Diff of ${where}: ${files.length} file${files.length === 1 ? '' : 's'} changed, +${added} -${removed}.`;
  const body = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (body.length <= TAIL_BUDGET_CHARS) return `${header}\n---\n${body}`;
  const cut = Math.max(body.lastIndexOf('\n', TAIL_BUDGET_CHARS), 0) || TAIL_BUDGET_CHARS;
  const shown = body.slice(0, cut);
  const shownLines = shown.split('\n').length;
  const totalLines = body.split('\n').length;
  const whole = summariseDiff(shown).files.length;
  // The last file shown may be cut short: it is not whole, so it is named too.
  const notWhole = files.slice(Math.max(whole - 1, 0));
  const named = notWhole.slice(0, FILES_LISTED).join(', ') + (notWhole.length > FILES_LISTED ? ` and ${notWhole.length - FILES_LISTED} more` : '');
  const saved = await saveForCaller(ctx, artifacts, 'text/x-diff', diff, 'diff');
  return [
    header,
    `Shown: the first ${shownLines} of ${totalLines} lines (the diff is longer than ${TAIL_BUDGET_CHARS} characters). Not shown whole: ${named}.`,
    saved === undefined
      ? 'The whole diff could not be saved as an artifact; only the lines below are available. Try again later for the rest.'
      : artifactSentence(saved, 'diff', 'text/x-diff'),
    '---',
    shown,
  ].join('\n');
}
