import type { IncomingMessage } from 'node:http';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/pipeline/principal.js';

export type AuthOutcome = { principal: Principal } | { failure: string };

/** Establishes who sent an HTTP request. A failure is answered 401 with `WWW-Authenticate`, never a tool result. */
export interface Authenticator {
  readonly mode: string;
  authenticate(request: IncomingMessage): Promise<AuthOutcome>;
  close?(): Promise<void> | void;
}

/** `MCP_AUTH_MODE=off`: every request is principal `local` (stdio and loopback HTTP only). */
export const noAuthentication: Authenticator = {
  mode: 'off',
  authenticate: async () => ({ principal: LOCAL_PRINCIPAL }),
};
