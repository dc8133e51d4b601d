import type { Principal } from '../identity/principal.js';

/** One chunk of an artifact, as `artifact_read` returns it (data base64-encoded). */
export interface ArtifactChunk {
  artifactId: string;
  mimeType: string;
  /** Size of the whole artifact in bytes. */
  bytes: number;
  offset: number;
  nextOffset: number;
  eof: boolean;
  /** Base64 of the bytes [offset, nextOffset). */
  data: string;
}

export interface SavedArtifact {
  artifactId: string;
  bytes: number;
}

/**
 * Values too large for a result (oversized structured values, whole job logs), kept for the retention period
 * and readable in bounded chunks by the principal that made the call, and by no one else.
 */
export interface ArtifactStore {
  /**
   * Saves content; throws when the store fails (callers degrade: `artifactId: null`). Text may come as
   * consecutive pieces (a serialization made as it is stored): the artifact is their concatenation's UTF-8.
   */
  save(owner: Principal, mimeType: string, content: string | Buffer | Iterable<string>): Promise<SavedArtifact>;
  /**
   * Reads from `offset`, at most `maxBytes` and never past the stored chunk that holds `offset` (so a read loads
   * no more than one chunk); unknown, expired or foreign ids all throw the same `artifact_not_found`.
   */
  read(owner: Principal, artifactId: string, offset: number, maxBytes: number): Promise<ArtifactChunk>;
}
