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
