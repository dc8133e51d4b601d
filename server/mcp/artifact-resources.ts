import { ResourceNotFoundError, ProtocolError, ProtocolErrorCode, type ReadResourceResult, type ResourceTemplateType } from '@modelcontextprotocol/server';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { isToolError } from '../../core/errors/tool-error.js';
import type { Principal } from '../../core/identity/principal.js';
import { MAX_MESSAGE_BYTES } from '../http/message-limits.js';
import { ARTIFACT_URI_PREFIX, artifactUri } from '../../core/kernel/artifact-links.js';

export { ARTIFACT_URI_PREFIX, artifactUri };
const ARTIFACT_URI = /^mcp-devtools:\/\/artifacts\/([0-9a-f]{32})$/;

/**
 * The largest artifact `resources/read` returns, in bytes (4 MiB, what this server takes in one message):
 * the whole artifact comes in one answer, so a larger one is read with artifact_read in chunks, or over
 * Streamable HTTP downloaded with `GET /artifacts/{artifactId}`.
 */
export const RESOURCE_READ_MAX_BYTES = MAX_MESSAGE_BYTES;

/** The one template: every artifact of the caller, by id. Artifacts are not listed (see resources/list). */
export const ARTIFACT_TEMPLATE: ResourceTemplateType = {
  uriTemplate: `${ARTIFACT_URI_PREFIX}{artifactId}`,
  name: 'artifact',
  title: 'An artifact of yours',
  description: 'A whole log, diff or file, or an oversized structured value, saved by one of your calls (the result links it). Yours alone, until it expires.',
};

/** Mime types whose artifacts are returned as `text` (when their bytes are UTF-8); any other as base64 `blob`. */
const isTextType = (mimeType: string): boolean => /^text\/|^application\/(json|x-ndjson|xml|yaml)\b|\+(json|xml)\b/.test(mimeType);

/**
 * `resources/read` of an artifact URI, for its owner: an unknown, expired or foreign id, and a URI that names
 * no artifact, all get the same -32602 "Artifact not found or expired" (with the URI in `data`), as
 * artifact_read answers them. The artifact is read chunk by chunk, up to RESOURCE_READ_MAX_BYTES.
 */
export async function readArtifactResource(store: ArtifactStore, owner: Principal, uri: string): Promise<ReadResourceResult> {
  const artifactId = ARTIFACT_URI.exec(uri)?.[1];
  if (artifactId === undefined) throw notFound(uri);
  const parts: Buffer[] = [];
  let mimeType = '';
  try {
    for (let offset = 0, eof = false; !eof;) {
      const chunk = await store.read(owner, artifactId, offset, RESOURCE_READ_MAX_BYTES);
      if (offset === 0 && chunk.bytes > RESOURCE_READ_MAX_BYTES) throw tooLarge(uri, artifactId, chunk.bytes);
      parts.push(Buffer.from(chunk.data, 'base64'));
      ({ mimeType, nextOffset: offset, eof } = chunk);
    }
  } catch (error) {
    if (isToolError(error) && error.code === 'artifact_not_found') throw notFound(uri);
    throw error;
  }
  const bytes = Buffer.concat(parts);
  const text = isTextType(mimeType) ? utf8(bytes) : undefined;
  return { contents: [text === undefined ? { uri, mimeType, blob: bytes.toString('base64') } : { uri, mimeType, text }] };
}

const notFound = (uri: string): ProtocolError => new ResourceNotFoundError(uri, 'Artifact not found or expired');

function tooLarge(uri: string, artifactId: string, bytes: number): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Artifact ${artifactId} is ${bytes} bytes, more than resources/read returns (${RESOURCE_READ_MAX_BYTES}): read it in chunks with artifact_read (artifactId "${artifactId}"), or over Streamable HTTP download it whole with GET /artifacts/${artifactId}.`,
    { uri, bytes, limitBytes: RESOURCE_READ_MAX_BYTES },
  );
}

/** The text of bytes that are UTF-8; undefined for any that are not (they go as a blob, byte for byte). */
function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
