import type { Settings } from '../../core/config/settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Logger } from '../../core/logging/logger.js';
import { MetricsSettings } from './metrics-settings.js';

/** The token a scrape of /metrics must send where one is needed, and the setting it comes from. */
export interface ScrapeToken {
  token: string;
  setting: 'MCP_METRICS_TOKEN' | 'MCP_ADMIN_TOKEN';
}

/**
 * MCP_METRICS_TOKEN, and no other token: scraping is a job of its own, so the scraper holds nothing that reads
 * or decides approvals. Until 0.4.0, a set-up with MCP_ADMIN_TOKEN alone keeps scraping with it, and is told at
 * start-up what to change (`required`: this server needs a scrape token at all). Refuses the two tokens equal.
 */
export function scrapeToken(settings: Settings, logger: Logger, required: boolean): ScrapeToken {
  const metrics = settings.of(MetricsSettings).MCP_METRICS_TOKEN;
  const admin = settings.of(CoreSettings).MCP_ADMIN_TOKEN;
  if (metrics !== '' && metrics === admin)
    throw new StartupError(
      'MCP_METRICS_TOKEN is the same as MCP_ADMIN_TOKEN: give the metrics scraper a token of its own, so that what scrapes /metrics cannot read approvals.',
    );
  if (metrics !== '' || admin === '') return { token: metrics, setting: 'MCP_METRICS_TOKEN' };
  if (required)
    logger.warn(
      'MCP_METRICS_TOKEN is not set, so /metrics still takes MCP_ADMIN_TOKEN, until 0.4.0: set MCP_METRICS_TOKEN to a token of its own and give the scraper that one (MCP_ADMIN_TOKEN only reads approvals, and never decides).',
    );
  return { token: admin, setting: 'MCP_ADMIN_TOKEN' };
}
