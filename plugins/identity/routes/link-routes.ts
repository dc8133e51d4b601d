import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isLinkVendor, type LinkVendor } from '../../../core/identity/acting-identity.js';
import { LinkError } from '../../../core/identity/link-error.js';
import type { Logger } from '../../../core/logging/logger.js';
import type { ContributionContext, RouteHandler, RouteRequest } from '../../../core/plugin/contributions.js';
import { StoreError } from '../../../core/store/key-value-store.js';
import type { AccountLinking } from '../account-linking.js';
import { linkingOf } from '../identity-tokens.js';
import type { Linker } from '../link-states.js';

const PREFIX = '/identity/link';
const ONE = /^\/identity\/link\/([a-z-]+)$/;
const STEP = /^\/identity\/link\/([a-z-]+)\/(callback|token)$/;
const USAGE =
  'Use GET /identity/link (your linked accounts), POST /identity/link/{vendor} (start: the URL to consent at), POST /identity/link/{vendor}/callback {"code","state"}, POST /identity/link/{vendor}/token {"token"} (a personal access token), DELETE /identity/link/{vendor}.';

/**
 * Linking for programs that hold the person's bearer token (the CLI against a server, a portal): mounted at
 * /identity/link behind the server's authentication, always for the person the token names (never a name in the
 * body). A link attempt started here is bound to that person and to this token, so only a request with the same
 * token finishes it. Answers JSON; a refusal carries the one sentence of the problem.
 */
export function linkRoutes({ kernel, logger }: ContributionContext): RouteHandler {
  return serveLinking(() => linkingOf(kernel), logger);
}

export function serveLinking(linking: () => AccountLinking | undefined, logger: Logger): RouteHandler {
  return async (request, response) => {
    if (request.caller.kind !== 'person') return send(response, 403, { error: 'Accounts are linked by the person, with their own bearer token.' });
    const linker: Linker = { principal: request.caller.principal.subject, session: sessionOf(request) };
    const served = linking();
    if (served === undefined) return send(response, 404, { error: 'Linked accounts are not set up on this server (MCP_VAULT_KEY); ask its operator.' });
    try {
      await route(served, request, response, linker);
    } catch (error) {
      if (error instanceof LinkError) return send(response, error.retryable ? 503 : 400, { error: error.message, problem: error.problem });
      if (error instanceof StoreError) {
        logger.warn({ err: error }, 'store of linked accounts unavailable');
        return send(response, 503, { error: 'The store of linked accounts could not be reached; try again in a moment.' });
      }
      throw error;
    }
  };
}

async function route(linking: AccountLinking, request: RouteRequest, response: ServerResponse, linker: Linker): Promise<void> {
  const { method, path } = request;
  if (path === PREFIX && method === 'GET') return send(response, 200, { accounts: await linking.accounts(linker.principal), offered: linking.vendors });
  const one = ONE.exec(path);
  const step = STEP.exec(path);
  const vendor = vendorOf((one ?? step)?.[1]);
  if (vendor === undefined) return send(response, 404, { error: USAGE });
  if (one !== null && method === 'POST') return send(response, 200, await linking.start(vendor, linker));
  if (one !== null && method === 'DELETE') return send(response, 200, await linking.disconnect(vendor, linker.principal));
  if (step === null || method !== 'POST') return send(response, 405, { error: USAGE });
  const body = await request.readJson(16_384);
  if (!body.ok) return send(response, 400, { error: body.message });
  const fields = (body.value ?? {}) as Record<string, unknown>;
  if (step[2] === 'callback') return send(response, 200, await linking.callback(vendor, String(fields.code ?? ''), String(fields.state ?? ''), linker));
  return send(response, 200, await linking.connectToken(vendor, String(fields.token ?? ''), linker));
}

/** The "session" of a program: its bearer token, hashed (the link states hash it again; no token is kept). */
function sessionOf(request: RouteRequest): string {
  return `bearer:${createHash('sha256')
    .update(String(request.raw.headers.authorization ?? ''))
    .digest('hex')}`;
}

function vendorOf(segment: string | undefined): LinkVendor | undefined {
  return segment !== undefined && isLinkVendor(segment) ? segment : undefined;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
