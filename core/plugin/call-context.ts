import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { PreparedRequest, UpstreamIdentity, UpstreamRequest } from './upstream-types.js';
import type { BodyLease } from '../http/body-budget.js';
import type { UpstreamObservation } from '../kernel/upstream-observer.js';
import type { ToolDefinition } from './tool-definition.js';
import type { Principal } from '../identity/principal.js';
import type { FurtherRequest, ToolOutput } from './tool-context.js';
import type { Rendering } from '../result/rendering.js';

export type { ArgsOf, EnvelopeMeta, FurtherRequest, HandlerContext, RequestGate, ToolContext, ToolOutput } from './tool-context.js';

/**
 * Decides a request the pipeline did not prepare (a second page, a follow-up read, a redirect hop), as the
 * policy stage decided the route, under the identity of the client that sends it; throws a ToolError to refuse
 * it. The request gate asks it last, after the path and read-only checks.
 */
export type FurtherRequestDecider = (request: FurtherRequest, identity: UpstreamIdentity) => void;

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
  /**
   * The text as consecutive pieces, set by the render stage instead of `text`: a big value's JSON
   * (core/pipeline/big-value.ts), made again on each call so that no stage holds it whole, or a rendering of
   * several pieces made at once (an array: TOON, or the JSON of a body that hasLargeText). The truncate stage
   * turns it into `text` (what the model is shown) and clears it. Data, not a closure (rendering.ts says why).
   */
  rendering?: Rendering;
  structured?: Record<string, unknown>;
  /**
   * The UTF-8 bytes of a structured value's JSON, when the stage that bounds its size has counted them: the
   * call line reuses them rather than serializing the value once more (they hold for `of` alone).
   */
  structuredBytes?: { of: unknown; bytes: number };
  /** `_meta` keys every result of this call carries, success or error (policy decision, upstream identity). */
  meta: Record<string, unknown>;
  /** Microseconds spent per stage and sub-step, for the stage breakdown. */
  timings: Record<string, number>;
  /** This call's share of the in-flight body budget, released by the kernel when the call ends. */
  bodyLease?: BodyLease;
  /** Set by the policy stage: how a request other than the prepared one, redirect hops included, is decided (the request gate asks). */
  decideFurther?: FurtherRequestDecider;
  result?: CallToolResult;
  /** The error code the call ended with, set by the envelope stage (the call's log line and metrics). */
  errorCode?: string;
  /** The call's last upstream exchange as its tool saw it (the call's log line). */
  observed?: UpstreamObservation;
}
