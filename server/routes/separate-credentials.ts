import type { Settings } from '../../core/config/settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Authenticator } from '../auth/authenticator.js';
import { refusingJobTokens, type JobToken } from '../auth/job-tokens.js';
import { hashToken } from '../auth/token-hash.js';
import { MetricsSettings } from '../metrics/metrics-settings.js';
import { scrapeToken, type ScrapeToken } from '../metrics/scrape-token.js';

/** What an HTTP server authenticates people with, the jobs' tokens kept out of it, and the token scrapes send. */
export interface SeparateCredentials {
  authenticator: Authenticator;
  scrape: ScrapeToken;
}

/**
 * One credential per job, for an HTTP server: the token /metrics takes (scrape-token.ts), and the refusal to start
 * where MCP_METRICS_TOKEN or MCP_ADMIN_TOKEN is also a token of the tokens file (re-read now), with which whoever
 * scrapes or reads approvals could act, and decide approvals, as that person. Past start-up, the authenticator
 * returned never takes either token as a person's, whatever the tokens file comes to say; an OIDC token cannot
 * be checked ahead, so that is all that keeps it apart there.
 */
export async function separateCredentials(settings: Settings, authenticator: Authenticator, logger: Logger, scrapes: boolean): Promise<SeparateCredentials> {
  const scrape = scrapeToken(settings, logger, scrapes && authenticator.mode !== 'off');
  const jobs: Array<JobToken & { holder: string }> = [
    { setting: 'MCP_METRICS_TOKEN', token: settings.of(MetricsSettings).MCP_METRICS_TOKEN, holder: 'whatever scrapes /metrics' },
    {
      setting: 'MCP_ADMIN_TOKEN',
      token: settings.of(CoreSettings).MCP_ADMIN_TOKEN,
      holder: scrape.setting === 'MCP_ADMIN_TOKEN' ? 'whatever scrapes /metrics or reads approvals with it' : 'whatever reads approvals with it',
    },
  ];
  for (const job of jobs) {
    if (job.token === '' || authenticator.principalOfTokenHash === undefined) continue;
    const person = await authenticator.principalOfTokenHash(hashToken(job.token));
    if (person === undefined) continue;
    throw new StartupError(
      `${job.setting} is also the bearer token of ${person.subject} in MCP_AUTH_TOKENS_FILE, so ${job.holder} could act as ${person.subject} (call tools, and do what the plugins' routes let ${person.subject} do): give each job a token of its own.`,
    );
  }
  return { authenticator: refusingJobTokens(authenticator, jobs), scrape };
}
