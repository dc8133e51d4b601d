import type { TSchema } from 'typebox';

/** The first MCP revision that lets `outputSchema` and `structuredContent` be rooted at something other than an object. */
export const FIRST_REVISION_WITH_ANY_ROOT = '2026-07-28';

/** Whether a schema's root is an object: only those are valid `outputSchema`s before that revision. */
export function isObjectRooted(schema: TSchema): boolean {
  return (schema as { type?: unknown }).type === 'object';
}

/**
 * Whether a client that negotiated `protocolVersion` may be sent this schema and values of it. Object-rooted
 * schemas go to every client; others only to clients of FIRST_REVISION_WITH_ANY_ROOT or later, because older
 * SDKs reject the whole `tools/list` answer (and any result) that carries one. An unknown revision counts as old.
 * Revisions are dates (YYYY-MM-DD), so they order as strings. Older clients get the tool as text only: the SDK's
 * alternative, wrapping schema and value as `{result}`, is never triggered, since nothing non-object reaches it.
 */
export function clientAccepts(schema: TSchema, protocolVersion: string | undefined): boolean {
  if (isObjectRooted(schema)) return true;
  return protocolVersion !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) && protocolVersion >= FIRST_REVISION_WITH_ANY_ROOT;
}
