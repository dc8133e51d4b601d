import Type from 'typebox';
import { CoreSettings } from '../../core/config/core-settings.js';
import { clamp } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';

export const MIN_RETENTION_SECONDS = 300;
export const MAX_RETENTION_SECONDS = 604800;

const RetentionSetting = Type.Pick(CoreSettings, ['STREAMING_ARTIFACT_RETENTION_SECONDS']);

/** STREAMING_ARTIFACT_RETENTION_SECONDS, clamped to 300-604800 (a clamped value is logged). */
export function artifactRetentionMs(settings: Settings, logger: Logger): number {
  const given = settings.of(RetentionSetting).STREAMING_ARTIFACT_RETENTION_SECONDS;
  const { value, clamped } = clamp(given, MIN_RETENTION_SECONDS, MAX_RETENTION_SECONDS);
  if (clamped) logger.warn(`STREAMING_ARTIFACT_RETENTION_SECONDS=${given} is outside ${MIN_RETENTION_SECONDS}-${MAX_RETENTION_SECONDS}; using ${value}.`);
  return value * 1000;
}
