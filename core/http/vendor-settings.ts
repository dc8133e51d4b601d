import Type, { type TSchema } from 'typebox';
import { CoreSettings } from '../config/core-settings.js';
import type { Settings } from '../config/settings.js';

/**
 * The identity settings every vendor plugin declares, for policy rules and `_meta["mcp-devtools/upstream"]`:
 * `<PREFIX>_CREDENTIAL_LABEL` (a human name for the credential, never the secret) and `<PREFIX>_ENVIRONMENT`
 * (its environment class, such as production or staging).
 */
export function identitySettings(prefix: string, defaultLabel: string): Record<string, TSchema> {
  return {
    [`${prefix}_CREDENTIAL_LABEL`]: Type.String({
      default: defaultLabel,
      description: 'Name of the credential shown in _meta and audit records (never the secret).',
    }),
    [`${prefix}_ENVIRONMENT`]: Type.String({
      default: 'default',
      description: 'Environment class of the credential (e.g. production), matched by policy rules.',
    }),
  };
}

/** The identity part of UpstreamClientOptions, read from those settings. */
export function identityFrom(settings: Settings, prefix: string): { credentialLabel: string; environment: string } {
  return {
    credentialLabel: settings.get<string>(`${prefix}_CREDENTIAL_LABEL`),
    environment: settings.get<string>(`${prefix}_ENVIRONMENT`),
  };
}

/** The core settings every upstream client is limited by. */
const TransportLimitSettings = Type.Pick(CoreSettings, ['MCP_REQUEST_TIMEOUT_MS', 'MCP_MAX_RESPONSE_BYTES', 'MCP_UPSTREAM_RETRIES']);

/** Timeouts, size cap and retries of UpstreamClientOptions, from the core settings. */
export function transportLimitsFrom(settings: Settings): { timeoutMs: number; maxBytes: number; retries: number } {
  const core = settings.of(TransportLimitSettings);
  return { timeoutMs: core.MCP_REQUEST_TIMEOUT_MS, maxBytes: core.MCP_MAX_RESPONSE_BYTES, retries: core.MCP_UPSTREAM_RETRIES };
}
