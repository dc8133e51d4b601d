import type { LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/server';
import type { AskToConfirm, AskToOpen, CallSession, ClientInfo, ConfirmByRetry } from '../plugin/call.js';
import type { ProgressReporter } from '../plugin/tool-context.js';
import type { TraceCarrier } from './call-span.js';
import type { Reach } from './tool-selection.js';

/** What the caller of `Kernel.call` says of a call besides the tool, its arguments and who calls. */
export interface CallOptions {
  signal?: AbortSignal;
  protocolVersion?: string;
  /** Told how far the call has come (the MCP server's `notifications/progress`, when the client asked). */
  progress?: ProgressReporter;
  /**
   * The id the caller's request carried (X-Request-Id, a traceparent's trace id): the call's log line, audit
   * record, span and upstream requests carry it. Made when absent, or when it is not a short run of visible
   * ASCII (call-span.ts): the trace id of the call's span when tracing is on, a random one otherwise.
   */
  requestId?: string;
  /** The MCP client that sent the call, as it named itself. */
  client?: ClientInfo;
  /** The conversation the call belongs to, and whether its request asked for lockdown. */
  session?: CallSession;
  /** The JSON-RPC id of the `tools/call` request, for its span. */
  jsonRpcRequestId?: string | number;
  /** The W3C trace context the request carried: the call's span continues that trace. */
  traceCarrier?: TraceCarrier;
  /**
   * Who reaches the tool: an MCP client (the default), or a program run by code mode's `execute`, which reaches
   * the tools the selection serves although MCP_CODE_MODE keeps them off the list, and never the code tools.
   */
  reach?: Reach;
  /** The client's own channel, when a client sent the call (the MCP adapter): what the call tells it. */
  channel?: ClientChannel;
}

/** What the call-wide steps tell the client that sent a call, through the MCP adapter's conversions. */
export interface ClientChannel {
  /** The least severe `notifications/message` the client asked for (none: it gets none). */
  logThreshold?: LoggingLevel;
  notify(notification: { method: 'notifications/message'; params: LoggingMessageNotificationParams }): Promise<void>;
  /** Its revision has `resource_link` blocks: the artifacts a result names are linked too. */
  resourceLinks: boolean;
  /** Its tool list changed (a toolset enabled); the adapter announces it as the client's era does. */
  toolsChanged(): Promise<void>;
  /**
   * Present when the client negotiated URL-mode elicitation (MCP 2025-11-25, `elicitation: { url: {} }`) on a
   * connection that can carry it: sends the person a URL to open through `elicitation/create` (mode `url`),
   * never through the model's context, and answers what they chose.
   */
  askToOpen?: AskToOpen;
  /**
   * Present when the client negotiated form-mode elicitation on a connection that can carry it mid-call: asks
   * the person a yes or no through `elicitation/create` (mode `form`), and answers what they chose.
   */
  askToConfirm?: AskToConfirm;
  /**
   * Present when a 2026-07-28 client declared form-mode elicitation in its request: a yes or no is asked by
   * answering `input_required`, and read back from the retried call.
   */
  confirmByRetry?: ConfirmByRetry;
}

/** A tool name the server does not offer: a JSON-RPC error, not a tool result. */
export class UnknownToolError extends Error {
  /** `detail` says what to do instead: the nearest names, or what in the configuration hides the tool. */
  constructor(
    readonly tool: string,
    detail = '',
  ) {
    super(`Unknown tool: ${tool}${detail}`);
    this.name = 'UnknownToolError';
  }
}
