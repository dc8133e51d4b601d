import { nodeCrypto } from '../../core/node-crypto.js';
import type { FileHandle } from 'node:fs/promises';
import { ToolError } from '../../core/errors/tool-error.js';
import type { Principal } from '../../core/identity/principal.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import type { ArtifactChunk, ArtifactStore, SavedArtifact } from '../../core/artifacts/artifact-store.js';
import { bufferChunks, utf8Chunks } from '../../core/artifacts/utf8-chunks.js';
import type { ArtifactFiles } from './artifact-files.js';

/**
 * Bytes per stored chunk, and the most one read returns. 24 KiB is 32,768 base64 characters: an
 * `artifact_read` answer stays under the 40,000-character text limit, so a chunk is never truncated.
 */
export const ARTIFACT_CHUNK_BYTES = 24 * 1024;
export const ARTIFACT_META_NAMESPACE = 'artifact-meta';
export const ARTIFACT_CHUNK_NAMESPACE = 'artifact-chunk';
const ID_PATTERN = /^[0-9a-f]{32}$/;
/** With ArtifactFiles (the memory store), an artifact larger than this goes to a file instead of the heap. */
export const ARTIFACT_FILE_THRESHOLD_BYTES = 1024 * 1024;

interface ArtifactMeta {
  mimeType: string;
  bytes: number;
  chunks: number;
  expiresAt: number;
  /** Set when the bytes are in a file of ArtifactFiles rather than in chunk entries. */
  file?: string;
}

/** The one answer for a foreign, unknown or expired id: nothing tells them apart. */
function notFound(): ToolError {
  return new ToolError('artifact_not_found', 'Artifact not found or expired');
}

/**
 * The store key of an artifact: a digest of the owner, then the id. The owner is part of every key, so another
 * principal cannot even address the entries, and no principal's name is written into the store.
 */
export function artifactKey(owner: Principal, artifactId: string): string {
  const ownerKey = nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify([owner.via, owner.subject]))
    .digest('hex')
    .slice(0, 32);
  return `${ownerKey}:${artifactId}`;
}

/**
 * Artifacts in the shared KeyValueStore (memory, SQLite or Redis, so every replica can serve a read), in
 * fixed-size chunks keyed by owner and id. Ids carry 128 random bits. The metadata is written last, so a
 * half-saved artifact is never visible. A read loads one stored chunk and returns from the offset to that
 * chunk's end: following `nextOffset` from 0, exactly what is loaded is returned, and memory stays bounded
 * whatever the artifact's size.
 */
export class ChunkedArtifactStore implements ArtifactStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    /** Where big artifacts go instead of the store: given for the memory store only (not shared, on the heap). */
    private readonly files?: ArtifactFiles,
  ) {}

  /**
   * Text is encoded chunk by chunk as it is written (utf8Chunks): a large value is never held a second time as
   * one whole UTF-8 buffer, and each chunk is in the store before the next is made. Text given in pieces is
   * pulled a piece at a time as chunks are written: it never exists whole here either. With ArtifactFiles, the
   * first chunks are held until the artifact proves bigger than ARTIFACT_FILE_THRESHOLD_BYTES; then they and
   * the rest go to a file, else to the store as usual.
   */
  async save(owner: Principal, mimeType: string, content: string | Buffer | Iterable<string>): Promise<SavedArtifact> {
    const artifactId = nodeCrypto().randomBytes(16).toString('hex');
    const key = artifactKey(owner, artifactId);
    const expiresAt = this.clock.now() + this.retentionMs;
    let chunks = 0;
    let bytes = 0;
    let held: Buffer[] = [];
    let spilled: { name: string; file: FileHandle } | undefined;
    try {
      for (const piece of Buffer.isBuffer(content) ? bufferChunks(content, ARTIFACT_CHUNK_BYTES) : utf8Chunks(content, ARTIFACT_CHUNK_BYTES)) {
        if (this.files === undefined) {
          await this.store.set(ARTIFACT_CHUNK_NAMESPACE, `${key}:${chunks}`, piece.toString('base64'), this.retentionMs);
        } else if (spilled === undefined && bytes + piece.length <= ARTIFACT_FILE_THRESHOLD_BYTES) {
          held.push(piece);
        } else {
          spilled ??= await this.files.create(expiresAt);
          for (const earlier of held) await writeAll(spilled.file, earlier);
          held = [];
          await writeAll(spilled.file, piece);
        }
        chunks++;
        bytes += piece.length;
      }
      if (spilled !== undefined) await spilled.file.close();
      for (const [index, piece] of held.entries())
        await this.store.set(ARTIFACT_CHUNK_NAMESPACE, `${key}:${index}`, piece.toString('base64'), this.retentionMs);
      const meta: ArtifactMeta = { mimeType, bytes, chunks, expiresAt, ...(spilled && { file: spilled.name }) };
      await this.store.set(ARTIFACT_META_NAMESPACE, key, meta, this.retentionMs);
    } catch (error) {
      if (spilled !== undefined) {
        await spilled.file.close().catch(() => {});
        await this.files?.remove(spilled.name);
      }
      throw error;
    }
    return { artifactId, bytes };
  }

  async read(owner: Principal, artifactId: string, offset: number, maxBytes: number): Promise<ArtifactChunk> {
    if (!ID_PATTERN.test(artifactId)) throw notFound();
    const key = artifactKey(owner, artifactId);
    const meta = await this.store.get<ArtifactMeta>(ARTIFACT_META_NAMESPACE, key);
    if (meta === undefined) throw notFound();
    if (meta.expiresAt <= this.clock.now()) {
      await this.remove(key, meta);
      throw notFound();
    }
    if (!Number.isInteger(offset) || offset < 0 || offset > meta.bytes) {
      throw new ToolError(
        'invalid_arguments',
        `offset must be an integer from 0 to ${meta.bytes} (the artifact's size in bytes); pass the nextOffset of the previous read.`,
      );
    }
    const index = Math.floor(offset / ARTIFACT_CHUNK_BYTES);
    const chunkStart = index * ARTIFACT_CHUNK_BYTES;
    const end = Math.min(meta.bytes, chunkStart + ARTIFACT_CHUNK_BYTES, offset + Math.max(1, maxBytes));
    let data: Buffer = Buffer.alloc(0);
    if (offset < end && meta.file !== undefined) {
      const read = await this.files?.read(meta.file, offset, end - offset);
      if (read === undefined) throw notFound(); // the file went with the folder (a tmp cleaner)
      data = read;
    } else if (offset < end) {
      const encoded = await this.store.get<string>(ARTIFACT_CHUNK_NAMESPACE, `${key}:${index}`);
      if (encoded === undefined) throw notFound(); // evicted by the store before its metadata
      data = Buffer.from(encoded, 'base64').subarray(offset - chunkStart, end - chunkStart);
    }
    const nextOffset = offset + data.length;
    return { artifactId, mimeType: meta.mimeType, bytes: meta.bytes, offset, nextOffset, eof: nextOffset >= meta.bytes, data: data.toString('base64') };
  }

  /** Expired by the server's clock: removed now, not only when the store's own TTL runs out. */
  private async remove(key: string, meta: ArtifactMeta): Promise<void> {
    try {
      await this.store.delete(ARTIFACT_META_NAMESPACE, key);
      if (meta.file !== undefined) return await this.files?.remove(meta.file);
      for (let i = 0; i < meta.chunks; i++) await this.store.delete(ARTIFACT_CHUNK_NAMESPACE, `${key}:${i}`);
    } catch {
      // the store's TTL removes them anyway; a failed clean-up must not turn "not found" into another error
    }
  }
}

/** Writes all of `bytes` at the file's position (a write may take fewer bytes than it is given). */
async function writeAll(file: FileHandle, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await file.write(bytes, at, bytes.length - at)).bytesWritten;
}
