import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import { logAuthFailure } from '../auth/auth-failure-log.js';
import { bearerToken } from '../auth/authenticator.js';

/**
 * Whether a request carries MCP_ADMIN_TOKEN as its bearer token, compared in constant time (the admin
 * endpoints and /metrics). A refusal is logged with its reason, never with the token sent.
 */
export function adminTokenCheck(adminToken: string, logger: Logger): (request: IncomingMessage) => boolean {
  const expected = digest(adminToken);
  return (request) => {
    const bearer = bearerToken(request);
    if ('token' in bearer && adminToken !== '' && timingSafeEqual(digest(bearer.token), expected)) return true;
    logAuthFailure(logger, request, 'token' in bearer ? 'the bearer token is not MCP_ADMIN_TOKEN.' : bearer.failure, 401);
    return false;
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
