import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { Answer, ClientInfo } from '../plugin/call.js';
import type { ToolDefinition } from '../plugin/tool-definition.js';
import {
  ATTR_CLIENT_NAME,
  ATTR_CLIENT_VERSION,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_OUTCOME,
  ATTR_REQUEST_ID,
  ATTR_VENDOR,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../metrics/span-attributes.js';
import { markFailed, serverTracer } from '../metrics/tracing.js';

const MAX_CLIENT_FIELD = 128;

/** W3C Trace Context a request carried (a `traceparent` HTTP header, or the request's `_meta`), as text. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** What a call's span is made from: the tool, and what its request said of itself. */
export interface CallSpanSource {
  tool: ToolDefinition;
  protocolVersion?: string;
  jsonRpcRequestId?: string | number;
  client?: ClientInfo;
  traceCarrier?: TraceCarrier;
}

/** A call's span and the context that makes it the parent of what the call does. */
export interface CallSpan {
  readonly span: Span;
  readonly context: Context;
}

/**
 * The span of one tool call, named and described as OpenTelemetry's MCP conventions name a server's `tools/call`:
 * `tools/call {tool}`, of kind SERVER. It continues the trace the request carried; without one, the trace of the
 * code that called the kernel (an application embedding it), or a new trace.
 */
export function startCallSpan(source: CallSpanSource): CallSpan {
  const parent = source.traceCarrier === undefined ? context.active() : propagation.extract(ROOT_CONTEXT, source.traceCarrier);
  const name = source.tool.spec.name;
  const attributes: Attributes = {
    [ATTR_MCP_METHOD_NAME]: 'tools/call',
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: name,
  };
  if (source.protocolVersion !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = source.protocolVersion;
  if (source.jsonRpcRequestId !== undefined) attributes[ATTR_JSONRPC_REQUEST_ID] = String(source.jsonRpcRequestId);
  const span = serverTracer().startSpan(`tools/call ${name}`, { kind: SpanKind.SERVER, attributes }, parent);
  if (span.isRecording()) {
    const vendor = source.tool.upstream?.identity.vendor;
    if (vendor !== undefined) span.setAttribute(ATTR_VENDOR, vendor);
    // A client names itself as it likes: cut, as on the call line.
    if (source.client !== undefined) {
      span.setAttribute(ATTR_CLIENT_NAME, source.client.name.slice(0, MAX_CLIENT_FIELD));
      if (source.client.version !== undefined) span.setAttribute(ATTR_CLIENT_VERSION, source.client.version.slice(0, MAX_CLIENT_FIELD));
    }
  }
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a call's span with its request id and how the call ended (`error.type` is the error code of a failure). */
export function endCallSpan(call: CallSpan, requestId: string, answer: Answer | undefined): void {
  const { span } = call;
  if (span.isRecording()) {
    const outcome = answer === undefined ? 'tool_failed' : (answer.errorCode ?? 'ok');
    span.setAttribute(ATTR_REQUEST_ID, requestId);
    span.setAttribute(ATTR_OUTCOME, outcome);
    if (outcome !== 'ok') markFailed(span, outcome);
  }
  span.end();
}

/** The trace id of a span that records, for the call line; undefined when tracing is off. */
export function recordedTraceId(call: CallSpan): string | undefined {
  return call.span.isRecording() ? call.span.spanContext().traceId : undefined;
}

/**
 * Request ids: what a caller sent, checked, or one made here. An id travels into log lines, the audit record, a
 * span and a header sent to the vendor, so only a short run of visible ASCII is taken as it came (anything else,
 * a line break above all, could forge a header or a log line): 1 to 128 characters from letters, digits and
 * `-_.:@/+=`. A caller's id that is not that is ignored and one is made, as if none had been sent.
 */
const ACCEPTED = /^[A-Za-z0-9\-_.:@/+=]{1,128}$/;

export function acceptedRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && ACCEPTED.test(value) ? value : undefined;
}

/** A new id: 32 lowercase hex digits, the shape of a trace id, so ids look alike wherever they came from. */
export function makeRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** W3C Trace Context: version, trace id, parent id, flags (a later version may add fields after them). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The trace id of a `traceparent` value, or undefined when it is not a valid one (version ff, an all-zero trace
 * or parent id, or fields after version 00's four are invalid, as the W3C recommendation says).
 */
export function traceIdOf(traceparent: unknown): string | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return traceId;
}
