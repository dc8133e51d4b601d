import { createHash, randomBytes } from 'node:crypto';
import { ToolError } from '../errors/tool-error.js';
import type { Principal } from '../pipeline/principal.js';
import type { Clock, KeyValueStore } from '../store/key-value-store.js';
import type { ArtifactChunk, ArtifactStore, SavedArtifact } from './artifact-store.js';

/** Bytes per stored chunk: a read loads only the chunks it returns, so memory stays bounded. */
export const ARTIFACT_CHUNK_BYTES = 64 * 1024;
const META = 'artifact-meta';
const CHUNK = 'artifact-chunk';

interface ArtifactMeta {
  mimeType: string;
  bytes: number;
  chunks: number;
  expiresAt: number;
}

/** The one answer for a foreign, unknown or expired id: nothing tells them apart. */
function notFound(): ToolError {
  return new ToolError('artifact_not_found', 'Artifact not found or expired');
}

/**
 * Artifacts in the shared KeyValueStore, in fixed-size chunks keyed by owner and id. Ids carry 128 random
 * bits; the owner is part of every key, so another principal cannot even address the entries. The metadata
 * is written last, so a half-saved artifact is never visible.
 */
export class ChunkedArtifactStore implements ArtifactStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly retentionMs: number,
  ) {}

  async save(owner: Principal, mimeType: string, content: string | Buffer): Promise<SavedArtifact> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const artifactId = randomBytes(16).toString('hex');
    const key = this.key(owner, artifactId);
    const chunks = Math.max(1, Math.ceil(bytes.length / ARTIFACT_CHUNK_BYTES));
    for (let i = 0; i < chunks; i++) {
      const piece = bytes.subarray(i * ARTIFACT_CHUNK_BYTES, (i + 1) * ARTIFACT_CHUNK_BYTES);
      await this.store.set(CHUNK, `${key}:${i}`, piece.toString('base64'), this.retentionMs);
    }
    const meta: ArtifactMeta = { mimeType, bytes: bytes.length, chunks, expiresAt: this.clock.now() + this.retentionMs };
    await this.store.set(META, key, meta, this.retentionMs);
    return { artifactId, bytes: bytes.length };
  }

  async read(owner: Principal, artifactId: string, offset: number, maxBytes: number): Promise<ArtifactChunk> {
    if (!/^[0-9a-f]{32}$/.test(artifactId)) throw notFound();
    const key = this.key(owner, artifactId);
    const meta = await this.store.get<ArtifactMeta>(META, key);
    if (meta === undefined || meta.expiresAt <= this.clock.now()) throw notFound();
    if (!Number.isInteger(offset) || offset < 0 || offset > meta.bytes) {
      throw new ToolError('invalid_arguments', `offset must be an integer from 0 to ${meta.bytes} (the artifact's size).`);
    }
    const end = Math.min(meta.bytes, offset + maxBytes);
    const parts: Buffer[] = [];
    for (let i = Math.floor(offset / ARTIFACT_CHUNK_BYTES); i * ARTIFACT_CHUNK_BYTES < end; i++) {
      const encoded = await this.store.get<string>(CHUNK, `${key}:${i}`);
      if (encoded === undefined) throw notFound();
      const start = i * ARTIFACT_CHUNK_BYTES;
      parts.push(Buffer.from(encoded, 'base64').subarray(Math.max(0, offset - start), end - start));
    }
    const data = Buffer.concat(parts);
    return { artifactId, mimeType: meta.mimeType, bytes: meta.bytes, offset, nextOffset: offset + data.length, eof: offset + data.length >= meta.bytes, data: data.toString('base64') };
  }

  private key(owner: Principal, artifactId: string): string {
    const ownerKey = createHash('sha256').update(JSON.stringify([owner.via, owner.subject])).digest('hex').slice(0, 32);
    return `${ownerKey}:${artifactId}`;
  }
}
