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
  if (spec.input === null || typeof spec.input !== 'object') {
    refuse(
      'it has no input schema. Give it one: Type.Object({ ... }, { additionalProperties: false }), or Type.Object({}, { additionalProperties: false }) for a tool without arguments.',
    );
  }
  const partialData: unknown = (spec.graphql as { partialData?: unknown } | undefined)?.partialData;
  if (partialData !== undefined && typeof partialData !== 'boolean') refuse('its graphql.partialData must be true or false.');
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

/**
 * A plugin whose tools declare routes exposes the client they are sent with as `upstream`: the kernel prepares
 * each route with it (path safety, API prefix) before policy decides, and the cache and the request gate know
 * whose identity acts by it. Without it every call failed with a message about an undeclared request.
 */
export function checkUpstreamExposed(plugin: string, instance: object, routed: readonly string[]): void {
  if (routed.length === 0 || isClient((instance as { upstream?: unknown }).upstream)) return;
  const elsewhere = Object.keys(instance).find((key) => isClient((instance as Record<string, unknown>)[key]));
  const tools = routed.length === 1 ? `its tool ${routed[0]} declares a route` : `its tools ${routed.join(', ')} declare routes`;
  const fix =
    elsewhere === undefined
      ? 'construct the UpstreamClient its handlers send with as readonly upstream = new UpstreamClient({ ... })'
      : `it holds an UpstreamClient as "${elsewhere}": name it readonly upstream`;
  throw new StartupError(
    `Plugin "${plugin}": ${tools}, but the plugin exposes no upstream client, which prepares each route and names the identity policy decides for: ${fix} (handlers reach it as deps.upstream or this.upstream).`,
  );
}

/**
 * An upstream binding, of this copy of mcp-devtools or another: what the kernel uses of one (the published
 * `UpstreamBinding`: `prepare` and `identity`). How the handlers send is theirs; a binding without `send` is one.
 */
function isClient(value: unknown): boolean {
  const client = value as { prepare?: unknown; identity?: unknown } | null | undefined;
  return typeof client?.prepare === 'function' && client.identity !== undefined;
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
