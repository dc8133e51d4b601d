import type {} from 'reflect-metadata'; // types only: the entry point loads the polyfill once
import { injectable } from 'tsyringe';
import type { TSchema } from 'typebox';
import type { PluginSpec, ToolSpec } from './contract.js';

// String keys shared through the global Reflect registry: a third-party plugin that imports its own copy of
// this module (a different bundle of mcp-devtools) still records metadata the kernel can read.
export const PLUGIN_METADATA = 'mcp-devtools:plugin';
export const TOOLS_METADATA = 'mcp-devtools:tools';

export interface RecordedTool {
  spec: ToolSpec;
  method: string | symbol;
}

/** Marks a class as an mcp-devtools plugin. Records metadata only; the kernel reads it. */
export function Plugin(spec: PluginSpec): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(PLUGIN_METADATA, spec, target);
    injectable()(target as unknown as new (...args: never[]) => unknown);
  };
}

/** Declares a method of a plugin class as an MCP tool. Records metadata only; the kernel reads it. */
export function Tool<I extends TSchema>(spec: ToolSpec<I>): MethodDecorator {
  return (target, method) => {
    const owner = target.constructor;
    const recorded: RecordedTool[] = Reflect.getOwnMetadata(TOOLS_METADATA, owner) ?? [];
    Reflect.defineMetadata(TOOLS_METADATA, [...recorded, { spec: spec as unknown as ToolSpec, method }], owner);
  };
}
