import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { ARTIFACT_CHUNK_BYTES } from './chunked-artifact-store.js';
import { readTextChunk } from './text-chunk.js';

const ArtifactReadArgs = Type.Object(
  {
    artifactId: Type.String({ minLength: 1, description: 'The artifactId a result named.' }),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Byte offset: 0, then the previous nextOffset.' })),
    // A string enum says what a union of constants says in half the tokens (as outputFormat does).
    encoding: Type.Optional(
      Type.Unsafe<'base64' | 'utf8'>({
        type: 'string',
        enum: ['base64', 'utf8'],
        default: 'base64',
        description: 'base64: any bytes; utf8: text, cut on character boundaries.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Largest chunk one read returns, in decoded bytes (the stored chunk size: a read loads what it returns). */
export const ARTIFACT_READ_MAX_BYTES = ARTIFACT_CHUNK_BYTES;

/** What artifact_read uses of the ArtifactsPlugin instance: the store the kernel built. */
export interface ArtifactsDeps {
  readonly store: ArtifactStore;
}

/**
 * `artifact_read`: reads an artifact (an oversized structured value, a whole log, a file) back in bounded
 * chunks: base64, so a program can reassemble it byte for byte, or UTF-8 text, so a model can page through a
 * log. Only the principal that made the original call can read it; for anyone else, as for an unknown or
 * expired id, the answer is "Artifact not found or expired".
 */
export const ARTIFACT_READ = defineTool({
  name: 'artifact_read',
  title: 'Read an artifact',
  description:
    'Read a saved artifact (a whole log, diff or file, or an oversized result) in chunks: ' +
    'JSON {artifactId, mimeType, bytes, offset, nextOffset, eof, data}, data the bytes [offset, nextOffset) in the encoding. ' +
    'Call again with nextOffset until eof.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: ArtifactReadArgs,
  handler: async (ctx, { store }: ArtifactsDeps) => {
    const { artifactId: id, offset: from = 0, encoding = 'base64' } = ctx.args;
    const chunk =
      encoding === 'utf8'
        ? await readTextChunk(store, ctx.principal, id, from, ARTIFACT_READ_MAX_BYTES)
        : await store.read(ctx.principal, id, from, ARTIFACT_READ_MAX_BYTES);
    const { artifactId, mimeType, bytes, offset, nextOffset, eof, data } = chunk;
    // Built key by key: the order is part of the documented answer.
    return { text: JSON.stringify({ artifactId, mimeType, bytes, offset, nextOffset, eof, data }) };
  },
});
