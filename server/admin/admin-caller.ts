import type { IncomingMessage } from 'node:http';
import type { Principal } from '../../core/identity/principal.js';
import type { Logger } from '../../core/logging/logger.js';
import { logAuthFailure } from '../auth/auth-failure-log.js';
import { bearerToken, type Authenticator } from '../auth/authenticator.js';
import { staticToken } from '../auth/static-token.js';

/** Who sent a request to the admin endpoint, or why it is refused (status and a sentence saying what to send). */
export type AdminCaller =
  { kind: 'reader' } | { kind: 'person'; principal: Principal } | { kind: 'refused'; status: number; error: string; challenge?: boolean };

export interface AdminCredentials {
  /** MCP_ADMIN_TOKEN: reads approvals (a bot, a dashboard), never decides. Empty: none. */
  adminToken: string;
  /** MCP_METRICS_TOKEN: scrapes /metrics, and is refused here. Empty: none. */
  metricsToken: string;
  /** The server's own authenticator (tokens file or OIDC): an approver's bearer token names them. */
  authenticator: Authenticator;
  logger: Logger;
}

const SEND_YOURS =
  "Send your own bearer token (Authorization: Bearer <token>): an approver's token of the tokens file or OIDC decides, MCP_ADMIN_TOKEN only reads.";

/**
 * Tells apart the three credentials the admin endpoint can be sent: the scrape token (refused: it scrapes and
 * nothing else), MCP_ADMIN_TOKEN (reads), and a person's token, authenticated as /mcp does it, whose principal
 * (never a name in the body) is who decides. Tokens are compared in constant time; a refusal is logged with its
 * reason, never with the token.
 */
export function adminCaller(credentials: AdminCredentials): (request: IncomingMessage) => Promise<AdminCaller> {
  const isAdminToken = staticToken(credentials.adminToken);
  const isMetricsToken = staticToken(credentials.metricsToken);
  const refuse = (request: IncomingMessage, status: number, reason: string, error: string, challenge = status === 401): AdminCaller => {
    logAuthFailure(credentials.logger, request, reason, status);
    return { kind: 'refused', status, error, challenge };
  };
  return async (request) => {
    const bearer = bearerToken(request);
    if (!('token' in bearer)) return refuse(request, 401, bearer.failure, SEND_YOURS);
    if (isMetricsToken(bearer.token))
      return refuse(
        request,
        403,
        'the bearer token is MCP_METRICS_TOKEN.',
        "This is MCP_METRICS_TOKEN, which scrapes /metrics and nothing else: approvals are read with MCP_ADMIN_TOKEN and decided with an approver's own token.",
      );
    if (isAdminToken(bearer.token)) return { kind: 'reader' };
    if (credentials.authenticator.mode === 'off')
      return refuse(
        request,
        401,
        'the bearer token is not MCP_ADMIN_TOKEN.',
        'The bearer token is not MCP_ADMIN_TOKEN, and with MCP_AUTH_MODE=off no approver can sign in here: run the server with MCP_AUTH_MODE=tokens or oidc to decide through it.',
      );
    // The authenticator logs (and counts) its own refusals.
    const outcome = await credentials.authenticator.authenticate(request);
    if ('failure' in outcome)
      return { kind: 'refused', status: outcome.status ?? 401, error: `Unauthorized: ${outcome.failure} ${SEND_YOURS}`, challenge: true };
    return { kind: 'person', principal: outcome.principal };
  };
}
