import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { PreparedRequest, UpstreamIdentity, UpstreamInterceptor, UpstreamRequest } from '../http/types.js';
import type { BodyLease } from '../kernel/body-budget.js';
import type { UpstreamObservation } from '../kernel/upstream-observer.js';
import type { ToolDefinition } from '../plugin/contract.js';
import type { Principal } from './principal.js';

/** What a vendor tool's handler returns: the parsed upstream response, never rendered text. */
export interface ToolOutput {
  /** The parsed upstream body (a JSON value, or a string for text endpoints). */
  value?: unknown;
  /** Tool metadata kept beside `data` (`nextPage`, `cache`); the text renders `{data, ...meta}` when present. */
  meta?: Record<string, unknown>;
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

/** What a tool handler sees. */
export interface ToolContext<A = Record<string, unknown>> {
  readonly toolName: string;
  readonly args: A;
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The request computed by the tool's `route` from the validated arguments (what policy decided on). */
  readonly route?: UpstreamRequest;
  /**
   * `route` as the tool's client prepared it, once, before policy decided on it: `upstream.send(ctx, ctx.route)`
   * sends exactly this. Any other request is prepared and decided on its own (see request-gate.ts).
   */
  readonly prepared?: PreparedRequest;
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

/**
 * Decides a request a handler sends beyond its tool's route (a second page, a follow-up read), as the policy
 * stage decided the route, under the identity of the client that sends it; throws a ToolError to refuse it.
 */
export type FurtherRequestDecider = (request: { method: string; path: string }, identity: UpstreamIdentity) => void;

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
  /** Set by the policy stage: how a request other than the prepared one is decided (the request gate asks). */
  decideFurther?: FurtherRequestDecider;
  result?: CallToolResult;
  /** The error code the call ended with, set by the envelope stage (the call's log line and metrics). */
  errorCode?: string;
  /** The call's last upstream exchange as its tool saw it (the call's log line). */
  observed?: UpstreamObservation;
}
