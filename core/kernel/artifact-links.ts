import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/server';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Principal } from '../identity/principal.js';
import { ARTIFACT_SENTENCE_ID } from '../vendor/saved-artifact.js';

/** Where an artifact is addressed as an MCP resource: `mcp-devtools://artifacts/{artifactId}`. */
export const ARTIFACT_URI_PREFIX = 'mcp-devtools://artifacts/';

export const artifactUri = (artifactId: string): string => `${ARTIFACT_URI_PREFIX}${artifactId}`;

/** Links added to one result at most (a result names one or two artifacts; a text naming many is not ours). */
const MAX_LINKS = 8;

/**
 * The artifacts a successful result names, as `resource_link` blocks after its content: the whole log, diff or
 * file its text names ("... is artifact {id}: read it with artifact_read ..."), and the spilled structured
 * value (`incomplete.artifactId`). Each is looked up in the caller's own artifacts first, so a link is only
 * ever made to an artifact of the caller that exists (text from upstream that mimics the sentence links
 * nothing), and carries its mime type and size. The text and `artifact_read` stay as they are.
 */
export async function withArtifactLinks(result: CallToolResult, owner: Principal, store: ArtifactStore): Promise<CallToolResult> {
  if (result.isError === true) return result;
  const ids = namedArtifacts(result);
  if (ids.length === 0) return result;
  const links: ResourceLink[] = [];
  for (const artifactId of ids) {
    const link = await linkTo(store, owner, artifactId);
    if (link !== undefined) links.push(link);
  }
  return links.length === 0 ? result : { ...result, content: [...result.content, ...links] };
}

function namedArtifacts(result: CallToolResult): string[] {
  const ids = new Set<string>();
  for (const block of result.content) {
    if (block.type !== 'text') continue;
    for (const match of block.text.matchAll(ARTIFACT_SENTENCE_ID)) ids.add(match[1]!);
  }
  const spilled = (result.structuredContent as { incomplete?: { artifactId?: unknown } } | undefined)?.incomplete?.artifactId;
  if (typeof spilled === 'string') ids.add(spilled);
  return [...ids].slice(0, MAX_LINKS);
}

async function linkTo(store: ArtifactStore, owner: Principal, artifactId: string): Promise<ResourceLink | undefined> {
  try {
    const { mimeType, bytes } = await store.read(owner, artifactId, 0, 1);
    return {
      type: 'resource_link',
      uri: artifactUri(artifactId),
      name: `artifact ${artifactId}`,
      description: `Saved by this call (${bytes} bytes); read it with resources/read or artifact_read until it expires.`,
      mimeType,
      size: bytes,
    };
  } catch {
    // Not the caller's, gone already, or the store is out: the text still names it; no link is made.
    return undefined;
  }
}
