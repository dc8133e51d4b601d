import { StartupError } from '../../core/errors/tool-error.js';
import type { Authenticator } from '../auth/authenticator.js';
import { hashToken } from '../auth/token-hash.js';
import type { Deciders } from '../../plugins/policy/index.js';

/** A token set in the environment for one job, and the job (said in the refusal). */
export interface JobToken {
  setting: 'MCP_METRICS_TOKEN' | 'MCP_ADMIN_TOKEN';
  token: string;
  /** Who holds it: "whatever scrapes /metrics", "the bots that read approvals". */
  holder: string;
}

/**
 * Refuses to start a server where a job's token is also a person's: a token of the tokens file (re-read now)
 * set as MCP_METRICS_TOKEN or MCP_ADMIN_TOKEN would let whoever scrapes or reads act, and decide approvals, as
 * that person. (MCP_METRICS_TOKEN equal to MCP_ADMIN_TOKEN is refused where the scrape token is chosen.) Only
 * the tokens file can be checked ahead: an OIDC token is issued later, so the admin endpoint also refuses both
 * tokens at every request.
 */
export async function refuseSharedCredentials(jobs: readonly JobToken[], authenticator: Authenticator, deciders: Deciders | undefined): Promise<void> {
  if (authenticator.principalOfTokenHash === undefined) return;
  for (const job of jobs) {
    if (job.token === '') continue;
    const person = await authenticator.principalOfTokenHash(hashToken(job.token));
    if (person === undefined) continue;
    const could = deciders?.isApprover(person) ? 'call tools and decide approvals' : 'call tools';
    throw new StartupError(
      `${job.setting} is also the bearer token of ${person.subject} in MCP_AUTH_TOKENS_FILE, so ${job.holder} could ${could} as ${person.subject}: give each job a token of its own.`,
    );
  }
}
