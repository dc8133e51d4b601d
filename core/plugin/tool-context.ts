import type { Logger } from 'pino';
import type { Static, TSchema } from 'typebox';
import type {
  CallActing,
  GraphqlFacts,
  GraphqlOperation,
  ObserveRequest,
  PreparedRequest,
  RateLimits,
  Route,
  UpstreamIdentity,
  UpstreamRequest,
  UpstreamResponse,
} from './upstream-types.js';
import type { BodyLease } from './body-lease.js';
import type { Provenance } from './provenance.js';
import type { ToolSpec } from './tool-spec.js';
import type { Principal } from '../identity/principal.js';

// What a tool handler sees and returns, and the interceptors around its upstream requests (which see the
// handler's context): one file, since each refers to the other.

/** What every handler output may hold, whatever the tool's envelope. */
interface OutputBody {
  /** The parsed upstream body (a JSON value, or a string for text endpoints). */
  value?: unknown;
  /** Final text for text-only tools (job logs): projection and rendering are skipped. */
  text?: string;
  /** An image shown after the text, as an MCP image content block (base64 `data`, lossless). */
  image?: { data: string; mimeType: string };
  /**
   * Whether text cut for the model may be saved whole to a file named in the truncation notice (default true).
   * The Atlassian passthroughs set false for bodies that were not JSON, where the reference servers save no
   * file and their notice names none: their text stays byte-identical.
   */
  saveTruncated?: boolean;
  /** `_meta` keys the result carries beside the call's own (code mode's `execute` lists its inner calls there). */
  resultMeta?: Record<string, unknown>;
  /** Whose words the value carries, item by item (tools that declare `provenance: {labels: true}`). */
  provenance?: Provenance;
}

/** The keys an envelope keeps beside `data` (`nextPage`, `cache`): what a handler returns as `meta`. */
export type EnvelopeMeta<E extends TSchema> =
  Static<E> extends Record<string, unknown> ? Omit<Static<E>, 'data' | 'incomplete' | 'provenance' | 'allowlist'> : Record<never, never>;

/**
 * `meta` as the envelope `E` types it: required when the envelope has keys beside `data` (unless the handler
 * returns final `text`), absent when it has none, and any record for a tool without an envelope.
 */
type MetaField<E> = [E] extends [never]
  ? { meta?: Record<string, unknown> }
  : E extends TSchema
    ? [keyof EnvelopeMeta<E>] extends [never]
      ? { meta?: undefined }
      : { meta: EnvelopeMeta<E> } | { meta?: undefined; text: string }
    : { meta?: Record<string, unknown> };

/**
 * What a vendor tool's handler returns: the parsed upstream response, never rendered text. `E` is the tool's
 * envelope schema (`ToolOutput<typeof PagedEnvelope>`), which types `meta`; without it `meta` is any record.
 * The text renders `{data, ...meta}` when meta is present.
 */
export type ToolOutput<E extends TSchema | undefined = undefined> = OutputBody & MetaField<E>;

/** The arguments of a handler whose input schema is `I`: its Static type (any record for a plain `TSchema`). */
export type ArgsOf<I extends TSchema> = TSchema extends I ? Record<string, unknown> : Static<I>;

/**
 * What a tool handler sees. `I` is the tool's input schema (`ToolContext<typeof ListArgs>`): `args` is its
 * Static type. `R` is the route: a REST request by default; `ToolContext<typeof Args, GraphqlRoute>` for a
 * GraphQL tool, `ToolContext<typeof Args, undefined>` for a tool that declares no `route`. `@Tool` checks both
 * against the spec, so a mismatch does not compile.
 */
export type ToolContext<I extends TSchema = TSchema, R extends Route | undefined = UpstreamRequest> = HandlerContext<ArgsOf<I>, R>;

/** The context of any handler, whatever its arguments and route: what the upstream client and interceptors take. */
export type AnyToolContext = ToolContext<TSchema, Route | undefined>;

/**
 * How far a long call has come: `done` of `total` units (bytes read or written, requests made; `total` omitted
 * when unknown), and what it is doing. The MCP server sends it as `notifications/progress` when the client's
 * request carried a progress token, at a bounded rate; otherwise it does nothing. Cheap: report as work
 * advances. A report whose `done` is below the last one starts a new step, counted after the previous one.
 */
export type ProgressReporter = (done: number, total?: number, message?: string) => void;

/** `tool` as a result of this call should name it (HandlerContext.adviseTool); the bare name outside a kernel. */
export function advisedTool(ctx: { readonly adviseTool?: (tool: string) => Promise<string> }, tool: string): Promise<string> {
  return ctx.adviseTool?.(tool) ?? Promise.resolve(tool);
}

/** The reporter of a call whose client asked for no progress. */
export const noProgress: ProgressReporter = () => {};

/** ToolContext by its arguments' type rather than their schema (what the compiler compares handlers by). */
export interface HandlerContext<A, R extends Route | undefined = UpstreamRequest> {
  readonly toolName: string;
  readonly args: A;
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The request computed by the tool's `route` from the validated arguments (what policy decided on). */
  readonly route: R;
  /**
   * `route` as the tool's client prepared it, once, before policy decided on it: `upstream.send(ctx, ctx.route)`
   * sends exactly this. Any other request is prepared and decided on its own (see request-gate.ts).
   */
  readonly prepared?: PreparedRequest;
  /** Interceptors (the HTTP cache) composed for this tool at start-up; the upstream client runs them. */
  readonly interceptors: readonly UpstreamInterceptor[];
  /** Records the duration of a sub-step (the policy decision, the network call) for the stage breakdown. */
  time(step: string, micros: number): void;
  /** Reports how far the call has come (downloads, fan-outs, saves): `notifications/progress` when asked for. */
  readonly progress: ProgressReporter;
  /** This call's share of the in-flight body budget; the upstream client takes from it while reading. */
  readonly bodyLease?: BodyLease;
  /** Who acts upstream (Call.acting): the upstream client sends with the person's linked account when it is set. */
  readonly acting?: CallActing;
  /** The call's request id (Call.requestId): the upstream client sends it as the vendor's request id header. */
  readonly requestId?: string;
  /** The kernel's observer of each request the upstream client puts on the network (timings, spans). */
  readonly observeRequest?: ObserveRequest;
  /** The rate-limit governor the upstream client consults before each request and tells of each answer. */
  readonly rateLimits?: RateLimits;
  /**
   * The request gate (request-gate.ts): every request the pipeline did not prepare passes it before it is sent,
   * a handler's further request (the gate interceptor asks) and each same-origin redirect hop (the upstream
   * client asks). Throws the ToolError that refuses it.
   */
  readonly gate?: RequestGate;
  /**
   * The tool declares `graphql: { partialData: true }`: a GraphQL answer with both data and errors reaches its
   * handler whole; otherwise the upstream client ends the call with the errors (graphql-answer.ts).
   */
  readonly graphqlPartialData?: boolean;
  /**
   * How a result of this call names another tool it sends the caller on to (`github_get` for a diff too large):
   * the name when the caller is served it, else the name and the toolset that would serve it. Use advisedTool().
   */
  readonly adviseTool?: (tool: string) => Promise<string>;
}

/** A request the pipeline did not prepare: a handler's further request, or a hop of a redirect the upstream answered with. */
export interface FurtherRequest {
  readonly method: string;
  /** The path as the client sends it (normalised, API prefix included): what policy rules match. */
  readonly path: string;
  /** The query the URL carries as sent (`?page=2`, or ''), held against the route's by the request gate. */
  readonly search?: string;
  /** The body as sent, for a request the gate reads (a GraphQL operation to its endpoint). */
  readonly body?: string;
  /** Set by the request gate for a GraphQL operation: what it asks for, read from the body sent. */
  readonly graphql?: GraphqlFacts;
  /** Set on a redirect hop: the request the upstream redirected. */
  readonly redirectOf?: { readonly method: string; readonly path: string };
}

/** Admits a request the pipeline did not prepare, sent by the client of `identity`, or throws the ToolError that refuses it. */
export type RequestGate = (request: FurtherRequest, identity: UpstreamIdentity) => void;

/** One link in the chain around the network call; the cache is one. `next` performs the request. */
export interface UpstreamInterceptor {
  name: string;
  /** Interceptors this one runs outside of (`kernel/request-counter`), by `plugin/name` (Placement in stages.ts). */
  before?: readonly string[];
  /** Interceptors this one runs inside of (`kernel/call-observer`). */
  after?: readonly string[];
  /** Decided once per tool at start-up; omitted means every tool. */
  appliesTo?(tool: ToolSpec): boolean;
  run(request: PreparedRequest, exchange: InterceptContext, next: () => Promise<UpstreamResponse>): Promise<UpstreamResponse>;
}

export interface InterceptContext {
  readonly identity: UpstreamIdentity;
  readonly tool: AnyToolContext;
  /** Re-run the request with extra headers (a conditional GET), through the rest of the chain. */
  revalidate(headers: Record<string, string>): Promise<UpstreamResponse>;
  /**
   * A read the server sends for itself, not the tool: a GET of another path of this vendor (as sent: API prefix
   * included), or a GraphQL query to its endpoint; an allowlist finding what a request by id belongs to before it
   * is sent. With this client's credential, to the network through the rate-limit governor, beneath every
   * interceptor (not cached, not gated: nothing of it reaches the tool). An error status throws, as for any request.
   */
  lookup(read: { readonly path: string } | { readonly graphql: GraphqlOperation }): Promise<UpstreamResponse>;
}
