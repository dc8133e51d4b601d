import { StartupError } from '../errors/tool-error.js';
import type { PluginSpec, ToolSpec } from '../plugin/contract.js';

/** Keys a schema may have and still say nothing of the value's type (TypeBox's `Type.Unknown()` with notes). */
const NOTES = new Set(['description', 'title', '$comment', 'examples', 'default']);

/**
 * The checks of what a tool declares that nothing else makes: each field a person or a model reads is there,
 * the annotations say whether it writes, its route is a function, and its envelope leaves `data` untyped when
 * jq may reshape it. Every refusal names the tool and its plugin and says what to change.
 */
export function checkToolSpec(spec: ToolSpec, where: string): void {
  const refuse = (what: string): never => {
    throw new StartupError(`${where}: ${what}`);
  };
  if (typeof spec.title !== 'string' || spec.title.trim() === '') refuse('its title is empty. Give it a short title for people, such as "List pipelines".');
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    refuse('its description is empty. Say what the tool does and what it returns: the model reads it to choose the tool.');
  }
  if (spec.annotations === null || typeof spec.annotations !== 'object' || typeof spec.annotations.readOnlyHint !== 'boolean') {
    refuse('annotations.readOnlyHint must be true or false (annotations: { readOnlyHint: true } for a tool that only reads).');
  }
  if (spec.route !== undefined && typeof spec.route !== 'function') {
    refuse("its route must be a function of the arguments, such as route: (args) => ({ method: 'GET', path: `/things/${args.id}` }).");
  }
  if (takesJq(spec) && typesData(spec.envelope)) {
    refuse(
      'its envelope gives data a type, but the tool takes jq, which may project data to any JSON value. Declare data as EnvelopeData (untyped), as the envelopes of mcp-devtools/plugin do, or leave jq out of its arguments.',
    );
  }
}

/** A plugin's version is shown by `mcp-devtools tools` and in logs: it must be there. */
export function checkPluginVersion(spec: PluginSpec): void {
  if (typeof spec.version !== 'string' || spec.version.trim() === '') {
    throw new StartupError(`Plugin "${spec.name}" has no version in @Plugin: give one, such as version: "1.0.0".`);
  }
}

function takesJq(spec: ToolSpec): boolean {
  const properties = (spec.input as { properties?: Record<string, unknown> }).properties;
  return properties !== undefined && Object.prototype.hasOwnProperty.call(properties, 'jq');
}

/** Whether an object-rooted envelope's `data` has a declared type (one a projection could break). */
function typesData(envelope: ToolSpec['envelope']): boolean {
  const data = (envelope as { properties?: Record<string, unknown> } | undefined)?.properties?.data;
  if (data === undefined || data === null || typeof data !== 'object') return false;
  return Object.keys(data).some((key) => !NOTES.has(key));
}
