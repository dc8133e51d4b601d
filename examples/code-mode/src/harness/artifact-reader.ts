import type { CallToolResult } from '@modelcontextprotocol/client';
// One `artifact_read` answer (structured-output.md, "Oversized results"), as the server declares it.
import type { ArtifactChunk } from 'mcp-devtools/plugin';
import { errorRecordOf, resultText, toolErrorFromRecord } from './tool-errors.js';

/** Calls one tool on the server and returns its result as is. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;


/**
 * Reads a whole artifact back: `artifact_read` from offset 0, then from each `nextOffset`, until `eof`; the
 * chunks are base64 and are decoded and concatenated. A read that makes no progress before `eof` would loop for
 * ever, so it is an error.
 */
export async function readArtifact(callTool: CallTool, artifactId: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0; ; ) {
    const result = await callTool('artifact_read', { artifactId, offset });
    if (result.isError) throw toolErrorFromRecord(errorRecordOf('artifact_read', result));
    const chunk = JSON.parse(resultText(result)) as ArtifactChunk;
    parts.push(Buffer.from(chunk.data, 'base64'));
    if (chunk.eof) return Buffer.concat(parts);
    if (chunk.nextOffset <= offset) throw new Error(`artifact_read of ${artifactId} made no progress at offset ${offset}`);
    offset = chunk.nextOffset;
  }
}
