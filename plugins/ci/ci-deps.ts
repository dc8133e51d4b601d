import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { AnyToolContext, ToolContext } from '../../core/plugin/tool-context.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { artifactSentence, saveForCaller } from '../../core/vendor/saved-artifact.js';
import type { CiClients } from './ci-clients.js';
import { errorExcerpts, readableLog } from './error-lines.js';
import type { JobFailure } from './report.js';

/** What the ci tools use of their plugin. */
export interface CiDeps {
  readonly clients: CiClients;
  readonly settings: Settings;
  readonly artifacts: ArtifactStore;
  readonly scrub: Scrub;
  /** First interval between two polls of ci_wait (CI_WAIT_POLL_MS). */
  readonly pollMs: number;
}

/** How much of a log a report shows. */
export interface LogOptions {
  contextLines: number;
  maxExcerpts: number;
}

/**
 * Puts a log into a failure: the lines around its first errors, and the whole log saved as the caller's
 * artifact (the MCP server links the sentence to its resource).
 */
export async function attachLog(ctx: AnyToolContext, deps: CiDeps, failure: JobFailure, raw: string, options: LogOptions): Promise<void> {
  const log = deps.scrub(raw);
  const lines = readableLog(log);
  failure.excerpts = errorExcerpts(lines, options);
  // saveForCaller reads the caller, progress and logger of a context: the same in a tool without a route.
  const saved = await saveForCaller(ctx as ToolContext, deps.artifacts, 'text/plain', lines.join('\n'), 'log');
  failure.log = saved === undefined ? 'The whole log could not be saved as an artifact.' : artifactSentence(saved, 'log', 'text/plain');
}

/** A read that may fail without failing the report: what went wrong becomes a note of the failure. */
export async function noted<T>(failure: JobFailure, what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'cancelled' || code === 'tool_failed' || code === 'policy_denied') throw error;
    failure.notes.push(`Could not read ${what}: ${(error as Error).message}`);
    return undefined;
  }
}
