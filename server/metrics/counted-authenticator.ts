import type { AuthFailure, Authenticator } from '../auth/authenticator.js';

/** What counts the requests authentication refused (PrometheusMetrics). */
export interface AuthFailureCounter {
  authFailure(reason: AuthFailureReason): void;
}

/**
 * Why a request was refused, in a few words an alert can group by: no credentials at all, credentials that were
 * not accepted (unknown, expired, malformed, of the wrong audience), or credentials that could not be checked
 * (the identity provider's keys out of reach: a 503, not the caller's fault).
 */
export type AuthFailureReason = 'missing_token' | 'invalid_token' | 'unverifiable';
export const AUTH_FAILURE_REASONS: readonly AuthFailureReason[] = ['missing_token', 'invalid_token', 'unverifiable'];

export function failureReason(failure: AuthFailure): AuthFailureReason {
  if (failure.missing === true) return 'missing_token';
  return failure.status === 503 ? 'unverifiable' : 'invalid_token';
}

/** The authenticator, with every failure it answers counted (on /mcp, artifact downloads and the console alike). */
export function countedAuthenticator(authenticator: Authenticator, counter: AuthFailureCounter | undefined): Authenticator {
  if (counter === undefined) return authenticator;
  return {
    mode: authenticator.mode,
    authenticate: async (request) => {
      const outcome = await authenticator.authenticate(request);
      if ('failure' in outcome) counter.authFailure(failureReason(outcome));
      return outcome;
    },
    ...(authenticator.principalOfTokenHash === undefined ? {} : { principalOfTokenHash: (sha256) => authenticator.principalOfTokenHash!(sha256) }),
    close: () => authenticator.close?.(),
  };
}
