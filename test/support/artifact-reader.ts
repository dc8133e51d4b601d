import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ArtifactChunk } from '../../core/artifacts/artifact-store.js';
import type { Principal } from '../../core/identity/principal.js';
import { textOf, type TestKernel } from './test-kernel.js';

/** The one text every refused `artifact_read` gets: another principal's, an unknown and an expired id alike. */
export const ARTIFACT_NOT_FOUND_TEXT = 'Error: Artifact not found or expired\nCode: artifact_not_found';

/**
 * Reads a whole artifact with `artifact_read`, as a program would: from offset 0, following nextOffset until
 * eof, base64-decoding and concatenating. Fails on any refusal or on a chunk that does not continue the last.
 */
export async function readArtifact(client: Client, artifactId: string): Promise<{ content: Buffer; mimeType: string; reads: number }> {
  const pieces: Buffer[] = [];
  let mimeType = '';
  let reads = 0;
  for (let offset = 0, eof = false; !eof; reads++) {
    const result = (await client.callTool({ name: 'artifact_read', arguments: { artifactId, offset } })) as CallToolResult;
    const first = result.content[0];
    if (result.isError || first?.type !== 'text') throw new Error(`artifact_read at offset ${offset} failed: ${JSON.stringify(result.content)}`);
    const chunk = JSON.parse(first.text) as ArtifactChunk;
    if (chunk.offset !== offset || (!chunk.eof && chunk.nextOffset <= offset))
      throw new Error(`artifact_read at offset ${offset} answered ${first.text.slice(0, 200)}`);
    pieces.push(Buffer.from(chunk.data, 'base64'));
    ({ mimeType, nextOffset: offset, eof } = chunk);
  }
  return { content: Buffer.concat(pieces), mimeType, reads };
}

/** Reads a whole text artifact in-process with `artifact_read`, encoding "utf8", as a model paging through a log would. */
export async function readTextArtifact(kernel: TestKernel, artifactId: string, principal?: Principal): Promise<string> {
  let whole = '';
  for (let offset = 0, eof = false; !eof;) {
    const chunk = JSON.parse(textOf(await kernel.call('artifact_read', { artifactId, offset, encoding: 'utf8' }, principal))) as ArtifactChunk;
    whole += chunk.data;
    ({ nextOffset: offset, eof } = chunk);
  }
  return whole;
}
