import type { Static, TSchema } from 'typebox';
import type { GraphqlRoute, Route, UpstreamBinding, UpstreamRequest } from './upstream-types.js';
import type { AnyToolContext, ToolContext, ToolOutput } from './tool-context.js';
import type { GraphqlRouting, RestRouting, ToolSpec, ToolSpecBase } from './tool-spec.js';

/**
 * A tool as one value, as github-mcp-server declares a `ServerTool`: what `tools/list` shows and policy decides
 * on (its spec), and the handler that runs a call. Made by `defineTool`; a plugin lists its tools in
 * `@Plugin({ ..., tools: [...] })`.
 */
export interface DefinedTool<D = unknown> {
  readonly spec: ToolSpec;
  /** Runs one call; `deps` is the plugin instance the kernel built (see `defineTool`). */
  readonly handler: (ctx: AnyToolContext, deps: D) => Promise<ToolOutput>;
}

/**
 * The handler `defineTool` accepts: its context typed from the input schema and the route (as `@Tool` types a
 * method), its output from the envelope, and `deps`, the plugin's dependencies.
 */
export type DefinedHandler<I extends TSchema, E extends TSchema | undefined, R extends Route | undefined, D> = (
  ctx: ToolContext<I, R>,
  deps: D,
) => Promise<ToolOutput<E>>;

/** The input schema and envelope are read from `input` and `envelope` alone, never guessed from the handler. */
type Handled<I extends TSchema, E extends TSchema | undefined, R extends Route | undefined, D> = { handler: DefinedHandler<NoInfer<I>, NoInfer<E>, R, D> };

/**
 * Declares a tool in one place: name, title, description, toolset, schemas, annotations, route (REST, or
 * `graphql` with a GraphQL route) and handler. The overloads are `@Tool`'s: a REST `route` gives the handler
 * `ctx.route: UpstreamRequest`, a GraphQL one `GraphqlRoute`, none `undefined`; `ctx.args` is the input
 * schema's Static type and the output must fit the envelope, so a mismatch does not compile.
 *
 * The handler's second argument is the plugin instance the kernel built with tsyringe. Annotate it with the
 * interface of what the handler uses (`handler: async (ctx, github: GithubDeps) => ...`): the plugin's
 * constructor, with its `@inject` parameters, stays the one place that says what its tools may reach (no
 * second container, no factory to wire), `@Plugin` refuses at compile time a class that lacks what its tools
 * use, and a test calls a handler with any object that has those members.
 */
export function defineTool<I extends TSchema, E extends TSchema | undefined = undefined, D = unknown>(
  tool: ToolSpecBase<I, E> & RestRouting<I> & { route: (args: Static<I>, upstream?: UpstreamBinding) => UpstreamRequest } & Handled<I, E, UpstreamRequest, D>,
): DefinedTool<D>;
export function defineTool<I extends TSchema, E extends TSchema | undefined = undefined, D = unknown>(
  tool: ToolSpecBase<I, E> & GraphqlRouting<I> & Handled<I, E, GraphqlRoute, D>,
): DefinedTool<D>;
export function defineTool<I extends TSchema, E extends TSchema | undefined = undefined, D = unknown>(
  tool: ToolSpecBase<I, E> & { graphql?: undefined; route?: undefined } & Handled<I, E, undefined, D>,
): DefinedTool<D>;
export function defineTool<I extends TSchema, E extends TSchema | undefined = undefined, D = unknown>(
  tool: ToolSpec<I, E> & Handled<I, E, UpstreamRequest | undefined, D>,
): DefinedTool<D>;
export function defineTool(tool: ToolSpec & { handler: (ctx: never, deps: never) => Promise<unknown> }): DefinedTool {
  const { handler, ...spec } = tool;
  return { spec: spec as ToolSpec, handler: handler as DefinedTool['handler'] };
}
