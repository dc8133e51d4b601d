import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Static, TSchema } from 'typebox';
import type { PreparedRequest, UpstreamInterceptor, UpstreamRequest } from '../http/types.js';
import type { BodyLease } from '../kernel/body-budget.js';
import type { UpstreamObservation } from '../kernel/upstream-observer.js';
import type { ToolDefinition } from '../plugin/contract.js';
import type { Principal } from './principal.js';

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
}

/** The keys an envelope keeps beside `data` (`nextPage`, `cache`): what a handler returns as `meta`. */
export type EnvelopeMeta<E extends TSchema> = Static<E> extends Record<string, unknown> ? Omit<Static<E>, 'data' | 'incomplete'> : Record<never, never>;

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
 * Static type. `R` is the route: present by default; `ToolContext<typeof Args, undefined>` for a tool that
 * declares no `route`. `@Tool` checks both against the spec, so a mismatch does not compile.
 */
export type ToolContext<I extends TSchema = TSchema, R extends UpstreamRequest | undefined = UpstreamRequest> = HandlerContext<ArgsOf<I>, R>;

/** ToolContext by its arguments' type rather than their schema (what the compiler compares handlers by). */
export interface HandlerContext<A, R extends UpstreamRequest | undefined = UpstreamRequest> {
  readonly toolName: string;
  readonly args: A;
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The request computed by the tool's `route` from the validated arguments (what policy decided on). */
  readonly route: R;
  /** Interceptors (the HTTP cache) composed for this tool at start-up; the upstream client runs them. */
  readonly interceptors: readonly UpstreamInterceptor[];
  /** Records the duration of a sub-step (the policy decision, the network call) for the stage breakdown. */
  time(step: string, micros: number): void;
  /** This call's share of the in-flight body budget; the upstream client takes from it while reading. */
  readonly bodyLease?: BodyLease;
  /** Decides a same-origin redirect of a read as the call itself was decided (set by the policy); throws to refuse it. */
  readonly decideRedirect?: RedirectDecider;
}

/** Throws a ToolError when the request a redirect leads to may not be made. */
export type RedirectDecider = (request: { method: string; path: string }) => void;

/** The state of one call as it flows through the stages. Each stage reads what earlier ones left. */
export interface CallContext {
  readonly tool: ToolDefinition;
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The MCP protocol revision negotiated with the client, when known. */
  readonly protocolVersion?: string;
  args: Record<string, unknown>;
  route?: UpstreamRequest;
  /** The route as the vendor client will send it (normalised path): what policy rules match. */
  prepared?: PreparedRequest;
  output?: ToolOutput;
  /** The value after projection: what the text is rendered from and what `data` holds. */
  value?: unknown;
  text?: string;
  structured?: Record<string, unknown>;
  /** `_meta` keys every result of this call carries, success or error (policy decision, upstream identity). */
  meta: Record<string, unknown>;
  /** Microseconds spent per stage and sub-step, for the stage breakdown. */
  timings: Record<string, number>;
  /** This call's share of the in-flight body budget, released by the kernel when the call ends. */
  bodyLease?: BodyLease;
  /** Set by the policy stage: how a redirect the upstream answers with is decided (see ToolContext). */
  decideRedirect?: RedirectDecider;
  result?: CallToolResult;
  /** The error code the call ended with, set by the envelope stage (the call's log line and metrics). */
  errorCode?: string;
  /** The call's last upstream exchange as its tool saw it (the call's log line). */
  observed?: UpstreamObservation;
}
