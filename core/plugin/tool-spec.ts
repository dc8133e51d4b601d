import type { Static, TSchema } from 'typebox';
import type { Settings } from '../config/settings.js';
import type { ProvenanceSpec } from './provenance.js';
import type { GraphqlRoute, HttpMethod, UpstreamBinding, UpstreamRequest } from './upstream-types.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A request a tool may send beyond its route (a second page, a follow-up read, the write a read resolved):
 * anything else a handler sends is refused, naming the plugin, with or without a policy. The route itself goes
 * out exactly as prepared: sending its method and path with another query or body is a further request too.
 */
export interface FurtherRoute {
  method: HttpMethod;
  /**
   * The path as routes write it (the client adds its API prefix): a segment `*` stands for any one segment, and a
   * last segment `**` for any number of them. The query is not matched: paging may change it.
   */
  path: string;
  /**
   * For a request to another host than the plugin's client (a signed download URL an answer gave, sent by a
   * client without credentials): a glob of that host (`*` for any). Its path is matched as sent.
   */
  host?: string;
  /**
   * The JSON body the request carries, as a route's `body` (computed from the arguments when `further` is a
   * function of them): the body sent must be this value. Where it holds a value the handler reads from an earlier
   * answer (the id of a transition found by its name), write FROM_UPSTREAM: any string, number, boolean or null there.
   * Without `body` the request carries none.
   */
  body?: unknown;
}

/**
 * In a further request's declared `body`: a value the handler takes from an earlier answer of the upstream (an id
 * it looked up), any string, number, boolean or null. Everything else in the body is bound to the declaration.
 */
export const FROM_UPSTREAM: unique symbol = Symbol.for('mcp-devtools.further-body.from-upstream');

/** Shape guards of a GraphQL document the caller writes (a passthrough such as `linear_graphql`). */
export interface GraphqlLimits {
  /** Most levels of nested fields, a root field being level 1 and fragments expanded. */
  maxDepth: number;
  /** Most fields an operation selects, each alias and each fragment spread's fields counted every time they appear. */
  maxFields: number;
  /** Whether `__schema` and `__type` may be asked for (default false); `__typename` always may. */
  introspection?: boolean;
  /**
   * Whether a document may hold a mutation (default false: queries only). With true the tool is listed and
   * decided as a write; MCP_READ_ONLY turns it back into queries only.
   */
  mutations?: boolean;
  /** Most bytes (UTF-8) a document may have, comments and layout included (default 102,400: 100 KiB). */
  maxBytes?: number;
  /** The settings these limits come from, named when a document is refused (`{ maxDepth: 'ACME_GRAPHQL_MAX_DEPTH' }`). */
  settings?: { maxDepth?: string; maxFields?: string; mutations?: string; maxBytes?: string };
}

/**
 * What a GraphQL tool sends: a fixed set of documents (each parsed at start-up, and the only ones it may send),
 * or documents its caller writes, held to `limits` (a function of the plugin's settings when an operator sets them).
 */
export type GraphqlSpec = (
  | { readonly documents: readonly string[]; readonly limits?: undefined }
  | { readonly limits: GraphqlLimits | ((settings: Settings) => GraphqlLimits); readonly documents?: undefined }
) & {
  /**
   * An answer with both `data` and `errors` (part of the operation failed: GitHub's `repository: null` with a
   * NOT_FOUND error) is useful to this tool: its handler gets the body whole. Without it (the default) such an
   * answer ends the call with `upstream_graphql_error`, naming each error's message and path. An answer with errors
   * and no data is an error either way.
   */
  readonly partialData?: boolean;
};

/** The requests a tool may send beyond its route: fixed, or computed from the validated arguments like the route. */
export type FurtherRoutes<I extends TSchema> = readonly FurtherRoute[] | ((args: Static<I>, upstream?: UpstreamBinding) => readonly FurtherRoute[]);

/** What every tool declares, whatever its route. */
export interface ToolSpecBase<I extends TSchema = TSchema, E extends TSchema | undefined = TSchema | undefined> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** TypeBox schema of the arguments; compiled once at start-up. */
  input: I;
  /** TypeBox schema of the structured envelope, for tools with a structured contract. */
  envelope?: E;
  /** The requests the handler may send beyond its route (see FurtherRoute). */
  further?: FurtherRoutes<I>;
  /**
   * The toolset this tool belongs to, named `<plugin>.<group>` (`github.actions`): `--toolsets` selects it by that
   * name, and the plugin's own name selects every toolset of the plugin. Omitted: the plugin's name.
   */
  toolset?: string;
  /** Serve this tool's upstream reads (GETs, GraphQL queries) through the HTTP cache (cache plugin). */
  cache?: boolean;
  /**
   * This tool saves (part of) what it reads as an artifact, so `artifact_read` is served beside it when tools
   * are selected (`--tools`, `--toolsets`). A plugin that injects the artifact store and marks none of its tools
   * is taken to save from all of them.
   */
  savesArtifacts?: boolean;
  /**
   * A `jq` that fails on this tool's answer gives the reference Atlassian servers' `{_jqError, _originalData}`
   * (the whole answer beside the error): for the passthroughs whose text matches theirs byte for byte. Other
   * tools give `{_jqError, reason, nearestPaths, topLevelKeys}`: the error and where to look, not the data again.
   */
  referenceJqError?: boolean;
  /** Whether its results carry people-written text it labels, and what a write writes to (provenance.ts). */
  provenance?: ProvenanceSpec<Static<I>>;
  /**
   * The call waits on something slow (CI): a 2026-07-28 client that declares the tasks extension is answered
   * with a task at once, and the call runs detached from its request (server/mcp/tasks). A function decides
   * from the arguments as sent (not yet validated: read them defensively).
   */
  detachable?: boolean | ((args: Readonly<Record<string, unknown>>) => boolean);
}

/** A REST tool: its `route` is a method and a path (or it has none). */
export interface RestRouting<I extends TSchema> {
  graphql?: undefined;
  /**
   * The upstream request this call makes, computed from the validated arguments without side effects.
   * The policy stage decides on it before anything is sent, and `policy explain` shows it. `upstream` is the
   * plugin's client, for a route that depends on how it is configured (an Atlassian Data Center serves another
   * API version than Cloud); absent when start-up computes a route only to read its method.
   */
  route?: (args: Static<I>, upstream?: UpstreamBinding) => UpstreamRequest;
}

/** A GraphQL tool: what it sends (`graphql`), and the operation each call runs (`route`). */
export interface GraphqlRouting<I extends TSchema> {
  graphql: GraphqlSpec;
  route: (args: Static<I>, upstream?: UpstreamBinding) => GraphqlRoute;
}

/**
 * What `@Tool` records on a method of a plugin class. `I` is the input schema and `E` the envelope; keep both
 * precise (declare a spec constant with `satisfies ToolSpec<typeof Args>`, not a `: ToolSpec` annotation) so
 * that `@Tool` can check the handler's `ToolContext` and `ToolOutput` against them. A spec is REST or GraphQL:
 * the types refuse a GraphQL route without `graphql`, and a REST one beside it.
 */
export type ToolSpec<I extends TSchema = TSchema, E extends TSchema | undefined = TSchema | undefined> = ToolSpecBase<I, E> &
  (RestRouting<I> | GraphqlRouting<I>);

/** A spec that declares its REST `route`: the handler's `ctx.route` is then always present. */
export type RoutedToolSpec<I extends TSchema, E extends TSchema | undefined = undefined> = ToolSpecBase<I, E> &
  RestRouting<I> & {
    route: (args: Static<I>) => UpstreamRequest;
  };

/** A GraphQL tool's spec constant: `GraphqlToolSpec<typeof Args, typeof Envelope>`. */
export type GraphqlToolSpec<I extends TSchema, E extends TSchema | undefined = undefined> = ToolSpecBase<I, E> & GraphqlRouting<I>;
