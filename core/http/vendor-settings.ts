import Type, { type TSchema } from 'typebox';
import { CoreSettings } from '../config/core-settings.js';
import type { Settings } from '../config/settings.js';
import { parseEgressAllow, type EgressAllowList } from './egress-guard.js';
import { CREDENTIAL_MODES, credentialModeSetting, type CredentialMode } from '../identity/credential-mode.js';

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
  // By key: the names are computed from the vendor's prefix, so no schema object names them. A schema built here
  // per call would compile a validator per read; identitySettings declared both as strings.
  return {
    credentialLabel: settings.get<string>(`${prefix}_CREDENTIAL_LABEL`),
    environment: settings.get<string>(`${prefix}_ENVIRONMENT`),
  };
}

/** The core settings every upstream client is limited by. */
const TransportLimitSettings = Type.Pick(CoreSettings, ['MCP_REQUEST_TIMEOUT_MS', 'MCP_MAX_RESPONSE_BYTES', 'MCP_UPSTREAM_RETRIES', 'MCP_EGRESS_ALLOW']);

/**
 * Timeouts, size cap, retries and what foreign requests may reach (MCP_EGRESS_ALLOW, see egress-guard.ts) of
 * UpstreamClientOptions, from the core settings. A mistake in MCP_EGRESS_ALLOW stops the start, naming it.
 */
export function transportLimitsFrom(settings: Settings): { timeoutMs: number; maxBytes: number; retries: number; egressAllow: EgressAllowList } {
  const core = settings.of(TransportLimitSettings);
  return {
    timeoutMs: core.MCP_REQUEST_TIMEOUT_MS,
    maxBytes: core.MCP_MAX_RESPONSE_BYTES,
    retries: core.MCP_UPSTREAM_RETRIES,
    egressAllow: parseEgressAllow(core.MCP_EGRESS_ALLOW),
  };
}

/**
 * `<PREFIX>_CREDENTIALS`: whose credential acts for a caller (core/identity/credential-mode.ts), for a vendor
 * whose accounts people can link (docs/identity.md).
 */
export function credentialModeSettings(prefix: string, vendorName: string): Record<string, TSchema> {
  return {
    [credentialModeSetting(prefix)]: Type.Union(
      CREDENTIAL_MODES.map((mode) => Type.Literal(mode)),
      {
        default: 'service',
        description: `Whose ${vendorName} account acts: service (the configured credential), user (each caller's own linked account, never the service credential; a caller who has not linked is refused), or user-or-service (the linked account when there is one). User modes need MCP_VAULT_KEY.`,
      },
    ),
  };
}

/** A vendor's credential mode, read from the setting credentialModeSettings declared. */
export function credentialModeFrom(settings: Settings, prefix: string): CredentialMode {
  return settings.get<CredentialMode>(credentialModeSetting(prefix));
}
