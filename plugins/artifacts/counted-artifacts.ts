import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Metrics } from '../../core/metrics/metrics.js';

/** The artifact store plugins get: the real one, with every artifact saved counted. */
export function countedArtifacts(store: ArtifactStore, metrics: Metrics): ArtifactStore {
  return {
    save: async (owner, mimeType, content) => {
      const saved = await store.save(owner, mimeType, content);
      metrics.artifactStored(saved.bytes);
      return saved;
    },
    read: (owner, artifactId, offset, maxBytes) => store.read(owner, artifactId, offset, maxBytes),
  };
}
