import type { EgressAllowList } from '../../core/http/egress-guard.js';
import type { Logger } from '../../core/logging/logger.js';
import type { RunningTracing } from './start-tracing.js';

/**
 * Whether this server exports traces, read from OpenTelemetry's own variables: OTEL_EXPORTER_OTLP_ENDPOINT (or
 * its traces-only form) or OTEL_TRACES_EXPORTER names where spans go; OTEL_TRACES_EXPORTER=none and
 * OTEL_SDK_DISABLED=true turn it off. Without any of them nothing of the SDK is loaded.
 */
export function tracingWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporters === 'none') return false;
  return Boolean(exporters || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Starts tracing when the environment asks for it (the SDK is loaded only then); undefined otherwise. */
export async function startTracingIfWanted(
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  egressAllow?: EgressAllowList,
): Promise<RunningTracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const { startTracing } = await import('./start-tracing.js');
  return startTracing({ logger, egressAllow });
}
