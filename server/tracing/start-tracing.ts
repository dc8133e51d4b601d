import { hostname } from 'node:os';
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from '../../core/logging/logger.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { NO_EGRESS_ALLOWANCE, type EgressAllowList } from '../../core/http/egress-guard.js';
import { LogSpanExporter } from './log-span-exporter.js';
import { guardedOtlpEndpoint } from './otlp-endpoint.js';

export interface TracingOptions {
  logger: Logger;
  /** MCP_EGRESS_ALLOW, parsed: the OTLP collector may be at a loopback or private address only when it names it. */
  egressAllow?: EgressAllowList;
  /** Spans go here, each as it ends, instead of to the exporters OTEL_TRACES_EXPORTER names (the tests' in-memory one). */
  exporter?: SpanExporter;
}

export interface RunningTracing {
  /** Sends the spans still queued, then stops tracing (the API records nothing again). */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK of a server that exports traces (loaded only then, tracing-wanted.ts): a tracer provider
 * configured by the standard OTEL_* variables (OTEL_TRACES_SAMPLER, OTEL_BSP_*, OTEL_EXPORTER_OTLP_* read by the
 * exporter itself), spans batched to OTLP over HTTP (JSON), W3C Trace Context in and out, and a context manager so
 * a call's span is the active one while it runs. The resource is this server (service.name mcp-devtools, its
 * version, host and pid), with OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES over it.
 */
export async function startTracing(options: TracingOptions): Promise<RunningTracing> {
  const { logger } = options;
  // The SDK's own complaints (an export that failed, a bad sampler name) become log lines, never stdout.
  diag.setLogger(
    {
      error: (message, ...args) => logger.warn({ otel: args.map(String) }, `OpenTelemetry: ${message}`),
      warn: (message, ...args) => logger.warn({ otel: args.map(String) }, `OpenTelemetry: ${message}`),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  let processors: SpanProcessor[];
  try {
    processors =
      options.exporter !== undefined
        ? [new SimpleSpanProcessor(options.exporter)]
        : (await exportersNamed(process.env, logger, options.egressAllow ?? NO_EGRESS_ALLOWANCE)).map((e) => new BatchSpanProcessor(e));
  } catch (error) {
    // An endpoint the egress guard refuses stops the start: nothing of the SDK stays installed.
    diag.disable();
    throw error;
  }
  const detected = await detectResources({ detectors: [envDetector] });
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVER_NAME, [ATTR_SERVICE_VERSION]: VERSION, 'host.name': hostname(), 'process.pid': process.pid }))
    .merge(detected);
  const provider = new BasicTracerProvider({ resource, spanProcessors: processors });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // Trace context only: baggage a client sent is not handed on to the vendors.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  logger.info({ exporters: processors.length, service: resource.attributes[ATTR_SERVICE_NAME] }, 'tracing on (OpenTelemetry)');
  return {
    shutdown: async () => {
      await provider.shutdown().catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'OpenTelemetry: spans could not all be sent'));
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}

/** The exporters OTEL_TRACES_EXPORTER names (`otlp` by default): `otlp`, `console` (as log lines on stderr). */
async function exportersNamed(env: NodeJS.ProcessEnv, logger: Logger, egressAllow: EgressAllowList): Promise<SpanExporter[]> {
  const names = (env.OTEL_TRACES_EXPORTER ?? 'otlp')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '' && n !== 'none');
  const exporters: SpanExporter[] = [];
  for (const name of new Set(names)) {
    if (name === 'otlp') exporters.push(await otlpExporter(env, logger, egressAllow));
    else if (name === 'console') exporters.push(new LogSpanExporter(logger));
    else logger.warn({ exporter: name }, `OTEL_TRACES_EXPORTER=${name} is not one this server has: use otlp (or console, spans as log lines)`);
  }
  return exporters;
}

async function otlpExporter(env: NodeJS.ProcessEnv, logger: Logger, egressAllow: EgressAllowList): Promise<SpanExporter> {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? '').trim();
  if (protocol === 'grpc') {
    logger.warn(
      { protocol },
      "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this server exports OTLP over HTTP (JSON); point OTEL_EXPORTER_OTLP_ENDPOINT at the collector's HTTP port (4318 by default)",
    );
  }
  // The endpoint as the exporter would read it, held to the egress guard on every connection.
  return new OTLPTraceExporter(await guardedOtlpEndpoint(env, egressAllow));
}
