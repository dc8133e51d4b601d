import type { AgentOptions } from 'node:http';
import { StartupError } from '../../core/errors/tool-error.js';
import { guardedLookup } from '../../core/http/egress-connector.js';
import { portOf, type EgressAllowList } from '../../core/http/egress-guard.js';
import { configuredUrlGuard, egressRefusalNow } from '../../core/http/guarded-fetch.js';

/** Where OTLP over HTTP sends traces when nothing names it (the specification's default). */
const DEFAULT_TRACES_URL = 'http://localhost:4318/v1/traces';

/**
 * Where spans go, as OpenTelemetry's variables say (the traces endpoint as written, or the general endpoint with
 * `v1/traces` after it, or the default), and the HTTP agent options that hold every connection there to the
 * egress guard: a collector at a loopback, private or metadata address is reached only when MCP_EGRESS_ALLOW names
 * it, as a webhook receiver is. An endpoint refused on what its host resolves to now stops the start with a
 * sentence; each connection is judged again as it is made (DNS rebinding gets nowhere).
 */
export async function guardedOtlpEndpoint(
  env: Readonly<Record<string, string | undefined>>,
  allow: EgressAllowList,
): Promise<{ url: string; httpAgentOptions: AgentOptions }> {
  const { url, setting } = tracesUrl(env);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(`${setting}=${JSON.stringify(url)} is not a URL: give the collector's OTLP/HTTP address, such as https://otel.example.com:4318.`);
  }
  if (!/^https?:$/.test(parsed.protocol)) throw new StartupError(`${setting}=${url} must be an http:// or https:// URL (OTLP over HTTP).`);
  const guard = configuredUrlGuard(parsed, allow, 'otlp-collector');
  const refused = await egressRefusalNow(guard, parsed);
  if (refused !== undefined) throw new StartupError(`Traces are not sent to ${parsed.origin}${parsed.pathname} (${setting}): ${refused}.`);
  const lookup = guardedLookup(guard, portOf(parsed)) as unknown as AgentOptions['lookup'];
  return { url: parsed.href, httpAgentOptions: { keepAlive: true, lookup } };
}

function tracesUrl(env: Readonly<Record<string, string | undefined>>): { url: string; setting: string } {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return { url: traces, setting: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (general) return { url: `${general.endsWith('/') ? general : `${general}/`}v1/traces`, setting: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  return { url: DEFAULT_TRACES_URL, setting: 'the OTLP default, as OTEL_EXPORTER_OTLP_ENDPOINT is unset' };
}
