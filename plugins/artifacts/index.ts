import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { ARTIFACT_READ, type ArtifactsDeps } from './artifact-read.js';

/**
 * The artifacts plugin: `artifact_read` (artifact-read.ts), which reads back what other tools saved. (No
 * lifecycle hooks, so the class does not declare DevtoolsPlugin: TypeScript rejects a weak type with nothing in
 * common.)
 */
@Plugin({
  name: 'artifacts',
  version: '1.0.0',
  // Not a default toolset: artifact_read is served whenever a served tool can save an artifact (tool-selection.ts).
  toolsets: { artifacts: { description: 'Read back artifacts: oversized results, whole logs, diffs and files, in chunks.', default: false } },
  tools: [ARTIFACT_READ],
})
export class ArtifactsPlugin implements ArtifactsDeps {
  constructor(@inject(TOKENS.ArtifactStore) readonly store: ArtifactStore) {}
}

export { createArtifactStore } from './artifact-service.js';
