import Type from 'typebox';
import { CoreSettings } from '../../core/config/core-settings.js';
import { clamp, lenient } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';

export const DEFAULT_MAX_BYTES = 262_144;
export const MIN_MAX_BYTES = 16_384;
export const MAX_MAX_BYTES = 16_777_216;

/** The two settings of structured output; both go through the usual configuration cascade. */
export const StructuredSettingsSchema = Type.Object({
  MCP_STRUCTURED_OUTPUT: Type.Boolean({
    default: false,
    description: 'Advertise outputSchema on the tools with a structured contract and add structuredContent to their results.',
  }),
  // Lenient: the contract says a bad bound is logged and replaced, never fatal.
  MCP_STRUCTURED_MAX_BYTES: lenient(
    Type.Integer({
      default: DEFAULT_MAX_BYTES,
      description: `Largest serialized structuredContent value in bytes; larger ones go to an artifact. Clamped to ${MIN_MAX_BYTES}-${MAX_MAX_BYTES}.`,
    }),
  ),
});

export interface StructuredSettings {
  enabled: boolean;
  /** The bound in force, after clamping. */
  maxBytes: number;
}

/** Reads the settings; an out-of-range bound is clamped and logged (an unparsable one was logged by the cascade). */
export function readStructuredSettings(settings: Settings, logger: Logger): StructuredSettings {
  const { MCP_STRUCTURED_MAX_BYTES: given, MCP_STRUCTURED_OUTPUT: asked } = settings.of(StructuredSettingsSchema);
  // Code mode's programs read structured values: MCP_CODE_MODE turns structured output on.
  const enabled = asked || settings.of(CoreSettings).MCP_CODE_MODE;
  const { value, clamped } = clamp(given, MIN_MAX_BYTES, MAX_MAX_BYTES);
  if (clamped) logger.warn(`MCP_STRUCTURED_MAX_BYTES=${given} is outside ${MIN_MAX_BYTES}-${MAX_MAX_BYTES}; using ${value}.`);
  return { enabled, maxBytes: value };
}
