import { inject } from 'tsyringe';
import Type, { type Static } from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ARTIFACT_CHUNK_BYTES } from '../../core/artifacts/chunked-artifact-store.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';

const ArtifactReadArgs = Type.Object(
  {
    artifactId: Type.String({ minLength: 1, description: 'The artifactId of a result (incomplete.artifactId of structured output).' }),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, default: 0, description: 'Byte offset to read from: 0 first, then the nextOffset of the previous read.' }),
    ),
  },
  { additionalProperties: false },
);

type ArtifactReadArgs = Static<typeof ArtifactReadArgs>;

/** Largest chunk one read returns, in decoded bytes (the stored chunk size: a read loads what it returns). */
export const ARTIFACT_READ_MAX_BYTES = ARTIFACT_CHUNK_BYTES;

/**
 * `artifact_read`: reads an artifact (an oversized structured value) back in bounded chunks, base64-encoded,
 * so a program can reassemble it byte for byte. Only the principal that made the original call can read it;
 * for anyone else, as for an unknown or expired id, the answer is "Artifact not found or expired". (No lifecycle
 * hooks, so the class does not declare DevtoolsPlugin: TypeScript rejects a weak type with nothing in common.)
 */
@Plugin({ name: 'artifacts', version: '1.0.0' })
export class ArtifactsPlugin {
  constructor(@inject(TOKENS.ArtifactStore) private readonly store: ArtifactStore) {}

  @Tool({
    name: 'artifact_read',
    title: 'Read an artifact',
    description:
      'Read a saved artifact (such as the full value of an oversized structured result, named by incomplete.artifactId) in chunks. ' +
      'Returns one JSON object {artifactId, mimeType, bytes, offset, nextOffset, eof, data} where data is the base64 of bytes [offset, nextOffset). ' +
      'Start at offset 0 and call again with nextOffset until eof is true; base64-decode and concatenate the chunks to get the whole artifact.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    input: ArtifactReadArgs,
  })
  async read(ctx: ToolContext<ArtifactReadArgs>): Promise<ToolOutput> {
    const chunk = await this.store.read(ctx.principal, ctx.args.artifactId, ctx.args.offset ?? 0, ARTIFACT_READ_MAX_BYTES);
    const { artifactId, mimeType, bytes, offset, nextOffset, eof, data } = chunk;
    // Built key by key: the order is part of the documented answer.
    return { text: JSON.stringify({ artifactId, mimeType, bytes, offset, nextOffset, eof, data }) };
  }
}
