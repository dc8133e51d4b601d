import type { ArtifactStore, SavedArtifact } from '../artifacts/artifact-store.js';
import type { ToolContext } from '../plugin/tool-context.js';
import { reportedPieces } from './reported-pieces.js';

/**
 * Saves content a result shows only part of (a log, a diff, a file) as an artifact of the caller. A store
 * outage never fails the call: the part shown is often all that is needed, and the result says the rest
 * could not be kept.
 */
export async function saveForCaller(
  ctx: ToolContext,
  artifacts: ArtifactStore,
  mimeType: string,
  content: string | Buffer,
  what: string,
): Promise<SavedArtifact | undefined> {
  try {
    const reported = typeof content === 'string' ? reportedPieces(content, ctx.progress, `saving the whole ${what} as an artifact`) : content;
    return await artifacts.save(ctx.principal, mimeType, reported);
  } catch (error) {
    ctx.logger.warn({ err: error, tool: ctx.toolName }, `could not save the whole ${what} as an artifact`);
    return undefined;
  }
}

/**
 * Finds the artifact ids the sentence below names in a result's text (the MCP server links each to its
 * resource). The sentence and the pattern live together so that they cannot drift apart.
 */
export const ARTIFACT_SENTENCE_ID = /is artifact ([0-9a-f]{32}): read it with artifact_read/g;

/** The sentence that names the artifact, and how to read it: as text for text, in base64 chunks otherwise. */
export function artifactSentence(saved: SavedArtifact, what: string, mimeType: string): string {
  const encoding = mimeType.startsWith('text/') ? ', encoding "utf8"' : '';
  return `The whole ${what} (${saved.bytes} bytes, ${mimeType}) is artifact ${saved.artifactId}: read it with artifact_read, artifactId "${saved.artifactId}"${encoding}.`;
}
