import type {} from 'reflect-metadata'; // types only: the entry point loads the polyfill once
import type { PluginSpec, ToolSpec } from './contract.js';
import type { DefinedTool } from './define-tool.js';
import { PLUGIN_METADATA, TOOLS_METADATA, type RecordedTool } from './decorators.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructor parameters are injected, of any type
export type PluginClass = new (...args: any[]) => object;

/**
 * A tool a plugin class declares: a value of `@Plugin({ tools })` (its handler takes the plugin instance), or a
 * method decorated with `@Tool`. Read without constructing the class.
 */
export type DeclaredTool =
  | { readonly spec: ToolSpec; readonly handler: DefinedTool<never>['handler']; readonly method?: undefined }
  | { readonly spec: ToolSpec; readonly method: string | symbol; readonly handler?: undefined };

export function readPluginSpec(target: unknown): PluginSpec | undefined {
  if (typeof target !== 'function') return undefined;
  return Reflect.getMetadata(PLUGIN_METADATA, target) as PluginSpec | undefined;
}

/**
 * The tools of a plugin class: those `@Plugin({ tools })` lists, in its order, then the `@Tool` methods of the
 * class and of its ancestors, the subclass's own last. An entry of `tools` that is not a `defineTool` value
 * keeps what it has (the kernel refuses it at start-up, naming the plugin).
 */
export function readToolSpecs(target: PluginClass): DeclaredTool[] {
  const values = (readPluginSpec(target)?.tools ?? []).map((tool): DeclaredTool => ({ spec: tool?.spec, handler: tool?.handler }));
  const chain: PluginClass[] = [];
  for (let c: unknown = target; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.unshift(c as PluginClass);
  }
  return [...values, ...chain.flatMap((c) => (Reflect.getOwnMetadata(TOOLS_METADATA, c) as RecordedTool[] | undefined) ?? [])];
}

export function isPluginClass(value: unknown): value is PluginClass {
  return readPluginSpec(value) !== undefined;
}

/** Whether a plugin's constructor asks for `token` with `@inject` (tsyringe records those tokens on the class). */
export function injectsToken(target: PluginClass, token: string): boolean {
  const tokens = Reflect.getOwnMetadata('injectionTokens', target) as Record<number, unknown> | undefined;
  // A plain token, or `{token, multiple, ...}` as recent tsyringe versions record it.
  return Object.values(tokens ?? {}).some((t) => t === token || (t as { token?: unknown } | null)?.token === token);
}
