import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import { StoreError } from '../../core/store/key-value-store.js';
import { ApprovalError, type ApprovalStore } from '../../plugins/policy/index.js';
import { readJsonBody } from '../transports/json-body.js';
import { adminTokenCheck } from './admin-token.js';

const MAX_BODY_BYTES = 16 * 1024;
const DECIDE = /^\/admin\/approvals\/([^/]+)\/(grant|reject)$/;

/**
 * The approvals admin endpoint, for approvers and chat-ops bots, and the only way to reach approvals kept in
 * the memory store: `GET /admin/approvals`, `POST /admin/approvals/{id}/grant|reject` (optional JSON body
 * `{"by": "name"}`), each with `Authorization: Bearer $MCP_ADMIN_TOKEN`. Without an admin token it is off.
 */
export function approvalRoutes(
  approvals: ApprovalStore,
  adminToken: string,
  logger: Logger,
): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  const isAdmin = adminTokenCheck(adminToken, logger);
  return async (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    if (path !== '/admin' && !path.startsWith('/admin/')) return false;
    if (adminToken === '') {
      send(response, 404, { error: 'The admin endpoints are off: set MCP_ADMIN_TOKEN to turn them on.' });
      return true;
    }
    if (!isAdmin(request)) {
      response.setHeader('www-authenticate', 'Bearer realm="mcp-devtools-admin"');
      send(response, 401, { error: 'Send the admin token: Authorization: Bearer $MCP_ADMIN_TOKEN.' });
      return true;
    }
    if (path === '/admin/approvals' && request.method === 'GET') {
      try {
        send(response, 200, { approvals: await approvals.list() });
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        sendStoreUnavailable(response, logger, error);
      }
      return true;
    }
    const decide = DECIDE.exec(path);
    if (decide === null || request.method !== 'POST') {
      send(response, decide === null ? 404 : 405, { error: 'Use GET /admin/approvals or POST /admin/approvals/{id}/grant|reject.' });
      return true;
    }
    const by = await approverName(request);
    if (by === undefined) {
      send(response, 400, { error: 'The body must be empty or JSON {"by": "<approver name, up to 200 characters>"}.' });
      return true;
    }
    const [, encoded, verdict] = decide as unknown as [string, string, 'grant' | 'reject'];
    const id = decodedSegment(encoded);
    if (id === undefined) {
      send(response, 400, { error: `The approval id ${JSON.stringify(encoded)} is not valid percent-encoding; ids look like apr-4c9e0f0b8a6d2e1f3a5b7c9d.` });
      return true;
    }
    try {
      const approval = verdict === 'grant' ? await approvals.grant(id, by) : await approvals.reject(id, by);
      logger.info({ approval: approval.id, status: approval.status, by, tool: approval.tool, subject: approval.subject }, 'approval decided');
      send(response, 200, { approval });
    } catch (error) {
      if (error instanceof StoreError) sendStoreUnavailable(response, logger, error);
      else if (error instanceof ApprovalError) send(response, error.kind === 'not_found' ? 404 : 409, { error: error.message });
      else throw error;
    }
    return true;
  };
}

/** Who decided: `by` from the body, "admin" when there is none; undefined for a malformed body. */
async function approverName(request: IncomingMessage): Promise<string | undefined> {
  const length = request.headers['content-length'];
  if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return 'admin';
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!body.ok || body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) return undefined;
  const by = (body.value as { by?: unknown }).by;
  if (by === undefined) return 'admin';
  return typeof by === 'string' && by.trim() !== '' && by.length <= 200 ? by.trim() : undefined;
}

/** A path segment percent-decoded, or undefined when its escapes are malformed (a client's mistake, not ours). */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Nothing was read or decided: the store cannot be reached (the same code a held call gets then). */
function sendStoreUnavailable(response: ServerResponse, logger: Logger, error: StoreError): void {
  logger.error({ err: error }, 'approvals admin request failed: the store cannot be reached');
  send(response, 503, {
    error: 'The approvals store (MCP_STORE_URL) cannot be reached, so nothing was read or decided; try again shortly.',
    code: 'store_unavailable',
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
