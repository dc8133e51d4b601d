import type { ToolAnnotations } from './tool-spec.js';

/**
 * The annotations most tools of a vendor API have, to spread or use as they are (`annotations: READ`): a read
 * that changes nothing and may be repeated, and a write that adds or changes without destroying. Both reach
 * the vendor's world (`openWorldHint`). A write that deletes, or cannot be undone, says so:
 * `{ ...WRITE, destructiveHint: true }`.
 */
export const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: true } as const satisfies ToolAnnotations;
export const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: true } as const satisfies ToolAnnotations;
