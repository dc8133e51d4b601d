import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Principal } from '../../core/identity/principal.js';
import { ProgramStop } from './sandbox/program-stop.js';

/** Bytes per read: the stores keep artifacts in chunks of at most this, and a read never crosses one. */
const READ_BYTES = 1024 * 1024;

/**
 * The whole text of an artifact of `owner` (an oversized structured value), read chunk by chunk. One larger than
 * `maxBytes` is refused before it is read: a program's sandbox could not hold it anyway.
 */
export async function readWholeArtifact(store: ArtifactStore, owner: Principal, artifactId: string, maxBytes: number): Promise<string> {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const chunk = await store.read(owner, artifactId, offset, READ_BYTES);
    if (chunk.bytes > maxBytes) {
      throw new ProgramStop(
        'program_limit',
        `A tool's result is ${chunk.bytes} bytes, more than the program's memory (MCP_CODE_MEMORY_MB) can hold, and the program was stopped: ask for less (jq, fewer per page).`,
      );
    }
    parts.push(Buffer.from(chunk.data, 'base64'));
    if (chunk.eof) break;
    offset = chunk.nextOffset;
  }
  return Buffer.concat(parts).toString('utf8');
}
