import type { ToolDescriptor, ToolSpec } from '../plugin/contract.js';

/** The `tools/list` entry of a tool, without structured output (the structured plugin adds `outputSchema`). */
export function toolDescriptor(spec: ToolSpec): ToolDescriptor {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    // A plain JSON copy: TypeBox may carry non-enumerable or symbol keys that must not leak to clients.
    inputSchema: JSON.parse(JSON.stringify(spec.input)) as Record<string, unknown>,
    annotations: { title: spec.title, ...spec.annotations },
  };
}

/** A tool's top-level `title` came with revision 2025-06-18; before it, clients read `annotations.title`. */
const readsTopLevelTitle = (revision: string | undefined): boolean => revision !== undefined && revision >= '2025-06-18';

/**
 * The entry as a client of `revision` reads it: from 2025-06-18 on, `annotations.title` repeats the top-level
 * `title` clients already show, and every tool of the list would pay for it in the model's context (about 8
 * o200k tokens a tool); older or unnamed revisions keep it, as the only title they know.
 */
export function descriptorFor(descriptor: ToolDescriptor, revision: string | undefined): ToolDescriptor {
  const annotations = descriptor.annotations;
  if (!readsTopLevelTitle(revision) || annotations === undefined || annotations.title !== descriptor.title) return descriptor;
  const { title: _repeated, ...rest } = annotations;
  return { ...descriptor, annotations: rest };
}
