import type { IncomingMessage } from 'node:http';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/identity/principal.js';

/** Why a request was not authenticated. Answered with `status` (401 by default), never a tool result. */
export interface AuthFailure {
  failure: string;
  /** No credentials were sent at all: the 401's `WWW-Authenticate` then carries no error code (RFC 6750 3.1). */
  missing?: boolean;
  /** 503 when the credentials could not be checked (the identity provider's keys are unreachable). */
  status?: number;
}

export type AuthOutcome = { principal: Principal } | AuthFailure;

/** Establishes who sent an HTTP request. A failure is answered 401 with `WWW-Authenticate`, never a tool result. */
export interface Authenticator {
  readonly mode: string;
  authenticate(request: IncomingMessage): Promise<AuthOutcome>;
  /**
   * `tokens` mode: the principal the token of this SHA-256 names now, the tokens file re-read first; undefined
   * when it names none. The console re-checks its sessions with it (their token is never kept, its hash is).
   */
  principalOfTokenHash?(sha256: string): Promise<Principal | undefined>;
  close?(): Promise<void> | void;
}

/** `MCP_AUTH_MODE=off`: every request is principal `local` (stdio and loopback HTTP only). */
export const noAuthentication: Authenticator = {
  mode: 'off',
  authenticate: async () => ({ principal: LOCAL_PRINCIPAL }),
};

/** The bearer token of a request, or the failure to answer when there is none. */
export function bearerToken(request: IncomingMessage): { token: string } | AuthFailure {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return { failure: 'a bearer token is required (Authorization: Bearer <token>).', missing: true };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) return { failure: 'the Authorization header must be "Bearer <token>".' };
  return { token: match[1]! };
}
