import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { ArtifactStoreFactory } from '../../core/kernel/kernel.js';
import { ArtifactFiles } from './artifact-files.js';
import { artifactRetentionMs } from './artifact-retention.js';
import { ChunkedArtifactStore } from './chunked-artifact-store.js';
import { countedArtifacts } from './counted-artifacts.js';

/**
 * The artifact store every plugin gets as `TOKENS.ArtifactStore`: chunks in the shared store, kept for
 * STREAMING_ARTIFACT_RETENTION_SECONDS (big ones in owner-only files with the memory store), each saved artifact counted. The server hands this factory to the kernel,
 * which builds the store before any plugin is constructed (vendor plugins take it in their constructors).
 */
export const createArtifactStore: ArtifactStoreFactory = ({ store, clock, settings, logger, metrics }): ArtifactStore =>
  countedArtifacts(
    new ChunkedArtifactStore(store, clock, artifactRetentionMs(settings, logger), store.kind === 'memory' ? new ArtifactFiles(clock) : undefined),
    metrics,
  );
