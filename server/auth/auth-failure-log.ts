import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import type { Authenticator } from './authenticator.js';

/**
 * Logs a refused HTTP request: what was asked, from where, and why it was refused. The reason is the
 * authenticator's own sentence, which names what was wrong with the credentials, never the credentials: no
 * header and no token is ever put in the line.
 */
export function logAuthFailure(logger: Logger, request: IncomingMessage, reason: string, status: number): void {
  logger.warn(
    {
      method: request.method,
      path: (request.url ?? '/').split('?', 1)[0],
      // The console authenticates a pasted token through a request that has headers only.
      remoteAddress: request.socket?.remoteAddress,
      status,
      reason,
    },
    'HTTP authentication failed',
  );
}

/** The authenticator, with every failure it answers logged. */
export function loggedAuthenticator(authenticator: Authenticator, logger: Logger): Authenticator {
  return {
    mode: authenticator.mode,
    authenticate: async (request) => {
      const outcome = await authenticator.authenticate(request);
      if ('failure' in outcome) logAuthFailure(logger, request, outcome.failure, outcome.status ?? 401);
      return outcome;
    },
    ...(authenticator.principalOfTokenHash === undefined ? {} : { principalOfTokenHash: (sha256) => authenticator.principalOfTokenHash!(sha256) }),
    close: () => authenticator.close?.(),
  };
}
