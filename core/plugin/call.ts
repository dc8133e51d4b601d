import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Principal } from '../identity/principal.js';
import type { Rendering } from '../result/rendering.js';
import type { BodyLease } from './body-lease.js';
import type { FurtherRequest, ProgressReporter, ToolOutput } from './tool-context.js';
import type { ToolDefinition } from './tool-definition.js';
import type { CallActing, PreparedRequest, Route, UpstreamIdentity } from './upstream-types.js';

/**
 * Decides a request the pipeline did not prepare (a second page, a follow-up read, a redirect hop), as the
 * policy stage decided the route, under the identity of the client that sends it; throws a ToolError to refuse
 * it. The request gate asks it last, after the path and read-only checks.
 */
export type FurtherRequestDecider = (request: FurtherRequest, identity: UpstreamIdentity) => void;

/** The MCP client that sent a call, as it names itself (initialize's `clientInfo`, or the request's envelope). */
export interface ClientInfo {
  readonly name: string;
  readonly version?: string;
}

/**
 * What a call's transport says of the conversation it belongs to: over stdio the connection, over stateless
 * HTTP the `X-MCP-Conversation` header or `_meta["mcp-devtools/conversation"]` (absent: the principal's one
 * conversation); and `X-MCP-Lockdown: true`, which asks for lockdown on this request (it can only tighten).
 */
export interface CallSession {
  readonly conversation?: string;
  readonly lockdown?: boolean;
}

/**
 * One tool call as its stages see it. Read-only: a stage that learns something for the stages inside it (the
 * validated arguments and the prepared request, the policy's decider) hands `next` a copy that carries it.
 * `meta` is the one record every stage adds to: the `_meta` keys every result of the call carries.
 */
/** Asks the person (not the model) to open `url`, with `message` saying why: `accept` once they agreed to open it. */
export type AskToOpen = (request: { message: string; url: string }) => Promise<'accept' | 'decline' | 'cancel'>;

/**
 * Asks the person (not the model) a yes or no, `message` being the whole question (form-mode elicitation):
 * `accept` once they said yes.
 */
export type AskToConfirm = (request: { message: string }) => Promise<'accept' | 'decline' | 'cancel'>;

/**
 * A yes or no asked across two rounds of one call, where the client cannot be asked mid-call (MCP 2026-07-28 has
 * no server-to-client requests): the first round ends with `input_required` carrying the question and an opaque
 * state; the client asks the person and retries the call with their answer and the state echoed.
 */
export interface ConfirmByRetry {
  /**
   * What a retried call carries: the person's answer and the state echoed (absent on a first round). Both come
   * from the client, so they are untrusted until the state is verified.
   */
  readonly answered?: { action: 'accept' | 'decline' | 'cancel'; state: string | undefined };
  /** Ends this round with `message` asked and `state` to echo: the call's result is replaced by `input_required`. */
  ask(question: { message: string; state: string }): void;
}

export interface Call {
  /** One object for the whole call, the same in every copy: plugins key per-call state by it (a WeakMap). */
  readonly scope: object;
  readonly tool: ToolDefinition;
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The MCP protocol revision negotiated with the client, when known. */
  readonly protocolVersion?: string;
  /**
   * Names the call in every record of it: the log line, the audit record, the request to the vendor (X-Request-Id),
   * the trace. The id the caller sent (X-Request-Id, a traceparent's trace id), or one the kernel made.
   */
  readonly requestId: string;
  /** The MCP client that sent the call, when it said. */
  readonly client?: ClientInfo;
  /** The conversation the call belongs to and what its request asked of untrusted content (CallSession). */
  readonly session?: CallSession;
  /** The OpenTelemetry context of the call's span: a plugin's own spans are its children. */
  readonly traceContext: Context;
  /** As the client sent them until the validate stage; validated, with defaults applied, from there on. */
  readonly args: Record<string, unknown>;
  /** Who acts upstream (a person's linked account or the service credential), when the tool's vendor links accounts. */
  readonly acting?: CallActing;
  /** The request the tool's `route` computes from the validated arguments (set by the validate stage). */
  readonly route?: Route;
  /** The route as the vendor client will send it (normalised path): what policy rules match. */
  readonly prepared?: PreparedRequest;
  /** Set by the policy stage: how a request other than the prepared one, redirect hops included, is decided. */
  readonly decideFurther?: FurtherRequestDecider;
  /** `_meta` keys every result of this call carries, success or error (policy decision, upstream identity). */
  readonly meta: Record<string, unknown>;
  /** This call's share of the in-flight body budget, released by the kernel when the call ends. */
  readonly bodyLease?: BodyLease;
  /** Records microseconds spent in a sub-step (the policy decision, the network), for the stage breakdown. */
  time(step: string, micros: number): void;
  /** Where the handler and the stages after it report progress (a spill's bytes); absent when no one asked. */
  readonly progress?: ProgressReporter;
  /** Asks the person to open a URL, past the model (URL-mode elicitation); absent when the client cannot. */
  readonly askToOpen?: AskToOpen;
  /** Asks the person a yes or no, past the model (form-mode elicitation); absent when the client cannot be asked. */
  readonly askToConfirm?: AskToConfirm;
  /** Asks the person a yes or no across a retry of the call (2026-07-28, form mode declared); absent otherwise. */
  readonly confirmByRetry?: ConfirmByRetry;
}

/**
 * What a successful call has produced so far, handed from each stage after the handler to the next: the
 * handler's output (scrubbed), the value after projection, then its text, then its structured value.
 */
export interface Produced {
  readonly output: ToolOutput;
  /** The value after projection: what the text is rendered from and what `data` holds. */
  readonly value: unknown;
  /** The text the model is shown, once rendered (and cut). */
  readonly text?: string;
  /**
   * The text as consecutive pieces, left by the render stage instead of `text` for a big value
   * (core/pipeline/answer.ts); the truncate stage turns it into `text`.
   */
  readonly rendering?: Rendering;
  readonly structured?: Record<string, unknown>;
  /** UTF-8 bytes of `structured`'s JSON, when the stage that bounds its size counted them (the call line reuses them). */
  readonly structuredBytes?: number;
}

/** How a call ended: its MCP result, and for its log line and metrics the error code and the structured size. */
export interface Answer {
  readonly result: CallToolResult;
  readonly errorCode?: string;
  readonly structuredBytes?: number;
}
