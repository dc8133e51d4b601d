import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logging/logger.js';
import { StoreError } from '../../core/store/key-value-store.js';
import { ApprovalError, rejectHeldCalls, type ApprovalStore, type Approver } from '../../plugins/policy/index.js';
import { adminTokenCheck } from './admin-token.js';
import { readDecisionBody } from './decision-body.js';

const ONE = /^\/admin\/approvals\/([^/]+)$/;
const DECIDE = /^\/admin\/approvals\/([^/]+)\/(grant|reject)$/;
const USAGE = "Use GET /admin/approvals[/{id}], POST /admin/approvals/{id}/grant|reject, or POST /admin/approvals/reject (several of one caller's).";

/**
 * The approvals admin endpoint, for approvers and chat-ops bots, and the only way to reach approvals kept in
 * the memory store, each request with `Authorization: Bearer $MCP_ADMIN_TOKEN` (without an admin token it is off):
 * `GET /admin/approvals` and `/admin/approvals/{id}`; `POST /admin/approvals/{id}/grant|reject` with an optional
 * JSON body `{"by": "name", "reason": "why"}` (a rejection needs the reason); `POST /admin/approvals/reject` with
 * `{"subject": "alice", "ids": [...], "reason": "why"}` rejects several of one caller's held calls (all of them
 * without `ids`). Decisions are recorded in the audit log and told to webhook receivers by the approvals store.
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
    try {
      await route(approvals, logger, request, response, path);
    } catch (error) {
      if (error instanceof StoreError) sendStoreUnavailable(response, logger, error);
      else if (error instanceof ApprovalError) send(response, statusOf(error), { error: error.message });
      else throw error;
    }
    return true;
  };
}

async function route(approvals: ApprovalStore, logger: Logger, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  const method = request.method ?? 'GET';
  if (path === '/admin/approvals' && method === 'GET') return send(response, 200, { approvals: await approvals.list() });
  if (path === '/admin/approvals/reject' && method === 'POST') return rejectSeveral(approvals, logger, request, response);
  const one = ONE.exec(path);
  if (one !== null && method === 'GET') {
    const id = decodedSegment(one[1]!);
    if (id === undefined) return sendMalformed(response, one[1]!);
    const approval = await approvals.get(id);
    return approval === undefined ? send(response, 404, { error: `Approval ${id} was not found or has expired.` }) : send(response, 200, { approval });
  }
  const decide = DECIDE.exec(path);
  if (decide === null || method !== 'POST') return send(response, decide === null && one === null ? 404 : 405, { error: USAGE });
  const body = await readDecisionBody(request);
  if ('problem' in body) return send(response, 400, { error: body.problem });
  const [, encoded, verdict] = decide as unknown as [string, string, 'grant' | 'reject'];
  const id = decodedSegment(encoded);
  if (id === undefined) return sendMalformed(response, encoded);
  const by = approver(body.by);
  const approval = verdict === 'grant' ? await approvals.grant(id, by, body.reason) : await approvals.reject(id, by, body.reason);
  logger.info({ approval: approval.id, status: approval.status, by: by.subject, tool: approval.tool, subject: approval.subject }, 'approval decided');
  send(response, 200, { approval });
}

/** Several held calls of one caller rejected with one reason, each by compare-and-set: what became of each. */
async function rejectSeveral(approvals: ApprovalStore, logger: Logger, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readDecisionBody(request);
  if ('problem' in body) return send(response, 400, { error: body.problem });
  if (body.subject === undefined) return send(response, 400, { error: 'Name whose held calls to reject: {"subject": "alice", "reason": "..."}.' });
  const results = await rejectHeldCalls(approvals, { subject: body.subject, ids: body.ids ?? 'all', approver: approver(body.by), reason: body.reason ?? '' });
  const rejected = results.filter((r) => r.ok).length;
  logger.info({ subject: body.subject, rejected, of: results.length, by: body.by }, 'approvals rejected in bulk');
  send(response, 200, {
    results: results.map((r) => (r.ok ? { id: r.id, status: r.approval.status } : { id: r.id, error: r.message })),
  });
}

function approver(by: string): Approver {
  return { subject: by, groups: [], via: 'admin' };
}

function statusOf(error: ApprovalError): number {
  return error.kind === 'not_found' ? 404 : error.kind === 'invalid' ? 400 : 409;
}

/** A path segment percent-decoded, or undefined when its escapes are malformed (a client's mistake, not ours). */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function sendMalformed(response: ServerResponse, encoded: string): void {
  send(response, 400, { error: `The approval id ${JSON.stringify(encoded)} is not valid percent-encoding; ids look like apr-4c9e0f0b8a6d2e1f3a5b7c9d.` });
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
