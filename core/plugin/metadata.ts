import type {} from 'reflect-metadata'; // types only: the entry point loads the polyfill once
import type { PluginSpec } from './contract.js';
import { PLUGIN_METADATA, TOOLS_METADATA, type RecordedTool } from './decorators.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructor parameters are injected, of any type
export type PluginClass = new (...args: any[]) => object;

export function readPluginSpec(target: unknown): PluginSpec | undefined {
  if (typeof target !== 'function') return undefined;
  return Reflect.getMetadata(PLUGIN_METADATA, target) as PluginSpec | undefined;
}

/** Tools declared on the class and on its ancestors, the subclass's own last. */
export function readToolSpecs(target: PluginClass): RecordedTool[] {
  const chain: PluginClass[] = [];
  for (let c: unknown = target; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.unshift(c as PluginClass);
  }
  return chain.flatMap((c) => (Reflect.getOwnMetadata(TOOLS_METADATA, c) as RecordedTool[] | undefined) ?? []);
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
