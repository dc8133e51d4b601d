import { SpanStatusCode, trace, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { SERVER_NAME, VERSION } from '../version.js';
import { ATTR_ERROR_TYPE } from './span-attributes.js';

/**
 * The tracer of every span the server makes, through the OpenTelemetry API: spans record nothing until an SDK is
 * registered (this server's when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER is set, or that of an
 * application embedding the kernel). Looked up each time rather than kept: a tracer kept from one registered SDK
 * would keep sending to it after another replaced it.
 */
export function serverTracer(): Tracer {
  return trace.getTracer(SERVER_NAME, VERSION);
}

/**
 * A span under the one in `parent`, or none when that one records nothing (tracing off, or the call not sampled):
 * its children would record nothing either, so nothing is made for them. Options given as a function are made
 * only for a span that records (attributes that cost something to compute).
 */
export function childSpan(parent: Context, name: string, options: SpanOptions | (() => SpanOptions) = {}): Span | undefined {
  if (trace.getSpan(parent)?.isRecording() !== true) return undefined;
  return serverTracer().startSpan(name, typeof options === 'function' ? options() : options, parent);
}

/** Marks a span failed with a low-cardinality `error.type` (an error code, an HTTP status). */
export function markFailed(span: Span, errorType: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
}
