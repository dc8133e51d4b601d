import type {} from 'reflect-metadata'; // types only: the entry point loads the polyfill once
import { injectable } from 'tsyringe';
import type { Static, TSchema } from 'typebox';
import type { GraphqlRoute, Route, UpstreamRequest } from './upstream-types.js';
import type { ToolContext, ToolOutput } from './tool-context.js';
import type { PluginSpec, ToolSpec } from './contract.js';
import type { GraphqlSpec, RestRouting, ToolSpecBase } from './tool-spec.js';

// String keys shared through the global Reflect registry: a third-party plugin that imports its own copy of
// this module (a different bundle of mcp-devtools) still records metadata the kernel can read.
export const PLUGIN_METADATA = 'mcp-devtools:plugin';
export const TOOLS_METADATA = 'mcp-devtools:tools';

export interface RecordedTool {
  spec: ToolSpec;
  method: string | symbol;
}

/** A class decorator that only fits a class whose instances have what the plugin's tools take (`D`). */
export type PluginDecorator<D> = <C extends abstract new (...args: never[]) => D>(target: C) => void;

/**
 * Marks a class as an mcp-devtools plugin. Records metadata only; the kernel reads it. With `tools`, the class's
 * instances must have what those tools' handlers take as `deps` (checked by the compiler where `@Plugin` is applied).
 * A spec typed as a plain `PluginSpec` (whose tools take any deps) fits any class, as before `tools` existed.
 */
export function Plugin<D = unknown>(spec: PluginSpec<D>): PluginDecorator<[D] extends [never] ? unknown : D> {
  return (target) => {
    Reflect.defineMetadata(PLUGIN_METADATA, spec, target);
    injectable()(target as unknown as new (...args: never[]) => unknown);
  };
}

/** The handler `@Tool` accepts for a spec: its context typed from the input schema and route, its output from the envelope. */
export type ToolHandler<I extends TSchema, E extends TSchema | undefined, R extends Route | undefined> = (ctx: ToolContext<I, R>) => Promise<ToolOutput<E>>;

/** A method decorator that only fits a handler of that type (checked by the compiler where `@Tool` is applied). */
export type ToolDecorator<I extends TSchema, E extends TSchema | undefined, R extends Route | undefined> = <H extends ToolHandler<I, E, R>>(
  target: object,
  method: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => void;

/**
 * Declares a method of a plugin class as an MCP tool. Records metadata only; the kernel reads it.
 * A spec with a `route` gives the handler `ctx.route`; one without gives `ToolContext<typeof Args, undefined>`;
 * a GraphQL spec (`graphql` and a route of `{ graphql: ... }`) gives `ToolContext<typeof Args, GraphqlRoute>`.
 */
export function Tool<I extends TSchema, E extends TSchema | undefined = undefined>(
  spec: ToolSpecBase<I, E> & RestRouting<I> & { route: (args: Static<I>) => UpstreamRequest },
): ToolDecorator<I, E, UpstreamRequest>;
export function Tool<I extends TSchema, E extends TSchema | undefined = undefined>(
  spec: ToolSpecBase<I, E> & { graphql: GraphqlSpec; route: (args: Static<I>) => GraphqlRoute },
): ToolDecorator<I, E, GraphqlRoute>;
export function Tool<I extends TSchema, E extends TSchema | undefined = undefined>(
  spec: ToolSpec<I, E> & { route?: undefined },
): ToolDecorator<I, E, undefined>;
export function Tool<I extends TSchema, E extends TSchema | undefined = undefined>(spec: ToolSpec<I, E>): ToolDecorator<I, E, UpstreamRequest | undefined>;
export function Tool(spec: ToolSpec): ToolDecorator<TSchema, TSchema | undefined, Route | undefined> {
  return (target, method) => {
    const owner = target.constructor;
    const recorded: RecordedTool[] = Reflect.getOwnMetadata(TOOLS_METADATA, owner) ?? [];
    Reflect.defineMetadata(TOOLS_METADATA, [...recorded, { spec, method }], owner);
  };
}
