import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import type { RouteCaller } from '../../core/plugin/contributions.js';
import { logAuthFailure } from '../auth/auth-failure-log.js';
import { bearerToken, type Authenticator } from '../auth/authenticator.js';
import { staticToken } from '../auth/static-token.js';

/** Who sent a request to a plugin's route, or why it is refused (status and a sentence saying what to send). */
export type Admission = { caller: RouteCaller } | { refused: { status: number; error: string; challenge: boolean } };

export interface RouteCredentials {
  /** MCP_ADMIN_TOKEN: the caller `admin` of the routes that let it in (reading tools, bots). Empty: none. */
  adminToken: string;
  /** MCP_METRICS_TOKEN: scrapes /metrics, and is refused here. Empty: none. */
  metricsToken: string;
  /** The server's own authenticator (tokens file or OIDC): a person's bearer token names them. */
  authenticator: Authenticator;
  logger: Logger;
}

/** What a route says of its callers (RouteContribution): whether MCP_ADMIN_TOKEN may call it, and who may, in a clause. */
export interface RouteAccess {
  adminToken: boolean;
  credentials: string;
}

/**
 * Tells apart the credentials a plugin's route can be sent: the scrape token (refused: it scrapes and nothing
 * else), MCP_ADMIN_TOKEN where the route lets it in, and a person's token, authenticated as /mcp does it, whose
 * principal (never a name in the body) is the caller. With MCP_AUTH_MODE=off nobody is a person here: a route acts
 * for someone the server authenticated, never for "local". Tokens are compared in constant time; a refusal is
 * logged with its reason, never with the token.
 */
export function routeCaller(credentials: RouteCredentials, access: RouteAccess): (request: IncomingMessage) => Promise<Admission> {
  const isAdminToken = staticToken(access.adminToken ? credentials.adminToken : '');
  const isMetricsToken = staticToken(credentials.metricsToken);
  const sendYours = `Send your own bearer token (Authorization: Bearer <token>): ${access.credentials}.`;
  const refuse = (request: IncomingMessage, status: number, reason: string, error: string): Admission => {
    logAuthFailure(credentials.logger, request, reason, status);
    return { refused: { status, error, challenge: status === 401 } };
  };
  return async (request) => {
    const bearer = bearerToken(request);
    if (!('token' in bearer)) return refuse(request, 401, bearer.failure, sendYours);
    if (isMetricsToken(bearer.token))
      return refuse(
        request,
        403,
        'the bearer token is MCP_METRICS_TOKEN.',
        `This is MCP_METRICS_TOKEN, which scrapes /metrics and nothing else: ${access.credentials}.`,
      );
    if (isAdminToken(bearer.token)) return { caller: { kind: 'admin' } };
    if (credentials.authenticator.mode === 'off')
      return refuse(
        request,
        401,
        access.adminToken ? 'the bearer token is not MCP_ADMIN_TOKEN.' : 'MCP_AUTH_MODE=off authenticates nobody.',
        `${access.adminToken ? 'The bearer token is not MCP_ADMIN_TOKEN, and w' : 'W'}ith MCP_AUTH_MODE=off nobody can sign in here as themselves: run the server with MCP_AUTH_MODE=tokens or oidc (${access.credentials}).`,
      );
    // The authenticator logs (and counts) its own refusals.
    const outcome = await credentials.authenticator.authenticate(request);
    if ('failure' in outcome) return { refused: { status: outcome.status ?? 401, error: `Unauthorized: ${outcome.failure} ${sendYours}`, challenge: true } };
    return { caller: { kind: 'person', principal: outcome.principal } };
  };
}
