import type { Server } from '@modelcontextprotocol/server';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { TOKENS } from '../../core/tokens.js';
import { ARTIFACT_TEMPLATE, readArtifactResource } from './artifact-resources.js';
import { principalOf } from './call-origin.js';

/** The kernel's artifact store, when it has one (a kernel embedded without the artifacts plugin has none). */
export function artifactStoreOf(kernel: Kernel): ArtifactStore | undefined {
  try {
    return kernel.resolve<ArtifactStore>(TOKENS.ArtifactStore);
  } catch {
    return undefined;
  }
}

/**
 * Artifacts as MCP resources (the `resources` capability, without subscriptions or list changes): read by URI
 * through the one template, each by its owner only. `resources/list` lists none: artifacts belong to one
 * principal and expire within the retention period, so there is no standing list to offer; results link the
 * ones they saved (`resource_link`) and the template says how any other is addressed.
 */
export function serveArtifactResources(server: Server, store: ArtifactStore): void {
  server.setRequestHandler('resources/list', () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [ARTIFACT_TEMPLATE] }));
  server.setRequestHandler('resources/read', (request, ctx) => readArtifactResource(store, principalOf(ctx), request.params.uri));
}
