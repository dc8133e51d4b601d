import type { Static, TSchema } from 'typebox';
import type { UpstreamBinding, UpstreamRequest } from './upstream-types.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * What `@Tool` records on a method of a plugin class. `I` is the input schema and `E` the envelope; keep both
 * precise (declare a spec constant with `satisfies ToolSpec<typeof Args>`, not a `: ToolSpec` annotation) so
 * that `@Tool` can check the handler's `ToolContext` and `ToolOutput` against them.
 */
export interface ToolSpec<I extends TSchema = TSchema, E extends TSchema | undefined = TSchema | undefined> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** TypeBox schema of the arguments; compiled once at start-up. */
  input: I;
  /** TypeBox schema of the structured envelope, for tools with a structured contract. */
  envelope?: E;
  /**
   * The upstream request this call makes, computed from the validated arguments without side effects.
   * The policy stage decides on it before anything is sent, and `policy explain` shows it. `upstream` is the
   * plugin's client, for a route that depends on how it is configured (an Atlassian Data Center serves another
   * API version than Cloud); absent when start-up computes a route only to read its method.
   */
  route?: (args: Static<I>, upstream?: UpstreamBinding) => UpstreamRequest;
  /**
   * The toolset this tool belongs to, named `<plugin>.<group>` (`github.actions`): `--toolsets` selects it by that
   * name, and the plugin's own name selects every toolset of the plugin. Omitted: the plugin's name.
   */
  toolset?: string;
  /** Serve this tool's upstream GETs through the HTTP cache (cache plugin). */
  cache?: boolean;
  /**
   * This tool saves (part of) what it reads as an artifact, so `artifact_read` is served beside it when tools
   * are selected (`--tools`, `--toolsets`). A plugin that injects the artifact store and marks none of its tools
   * is taken to save from all of them.
   */
  savesArtifacts?: boolean;
}

/** A spec that declares its `route`: the handler's `ctx.route` is then always present. */
export type RoutedToolSpec<I extends TSchema, E extends TSchema | undefined = undefined> = ToolSpec<I, E> & {
  route: (args: Static<I>) => UpstreamRequest;
};
