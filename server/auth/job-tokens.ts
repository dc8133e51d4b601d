import { bearerToken, type Authenticator } from './authenticator.js';
import { staticToken } from './static-token.js';
import { hashToken } from './token-hash.js';

/** A token set in the environment for a job no person does (MCP_METRICS_TOKEN, MCP_ADMIN_TOKEN). */
export interface JobToken {
  setting: string;
  token: string;
}

/**
 * The authenticator, refusing the jobs' tokens as a person's: should the tokens file come to list one after
 * start-up (which refuses it at start), the scraper or a bot holding it still cannot call tools, sign in to the
 * console or decide as that person. The console's re-checks by token hash are refused the same way.
 */
export function refusingJobTokens(authenticator: Authenticator, jobs: readonly JobToken[]): Authenticator {
  const set = jobs.filter((j) => j.token !== '');
  if (set.length === 0) return authenticator;
  const matchers = set.map((job) => ({ setting: job.setting, matches: staticToken(job.token), sha256: hashToken(job.token) }));
  return {
    mode: authenticator.mode,
    authenticate: async (request) => {
      const bearer = bearerToken(request);
      const job = 'token' in bearer ? matchers.find((m) => m.matches(bearer.token)) : undefined;
      if (job !== undefined) return { failure: `the bearer token is ${job.setting}, which is no person's token.` };
      return authenticator.authenticate(request);
    },
    ...(authenticator.principalOfTokenHash === undefined
      ? {}
      : {
          principalOfTokenHash: async (sha256) =>
            matchers.some((m) => m.sha256 === sha256.toLowerCase()) ? undefined : authenticator.principalOfTokenHash!(sha256),
        }),
    close: () => authenticator.close?.(),
  };
}
