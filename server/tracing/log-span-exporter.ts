import { hrTimeToMilliseconds, ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../../core/logging/logger.js';

/**
 * OTEL_TRACES_EXPORTER=console: each span as a log line on stderr, for looking at traces without a collector. Not
 * the SDK's ConsoleSpanExporter, which writes to stdout: over stdio, stdout carries the MCP messages.
 */
export class LogSpanExporter implements SpanExporter {
  constructor(private readonly logger: Logger) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const span of spans) {
      this.logger.info(
        {
          traceId: span.spanContext().traceId,
          spanId: span.spanContext().spanId,
          parentSpanId: span.parentSpanContext?.spanId ?? null,
          span: span.name,
          kind: span.kind,
          durationMs: Math.round(hrTimeToMilliseconds(span.duration) * 10) / 10,
          status: span.status.code,
          attributes: span.attributes,
        },
        'span',
      );
    }
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {}
}
