import type { ServerResponse } from 'node:http';
import type { Principal } from '../../../core/identity/principal.js';
import type { Logger } from '../../../core/logging/logger.js';
import type { ContributionContext, RouteCaller, RouteHandler, RouteRequest } from '../../../core/plugin/contributions.js';
import { StoreError } from '../../../core/store/key-value-store.js';
import { ApprovalError, type ApprovalStore } from '../approvals/approval-store.js';
import { approvalErrorStatus } from '../approvals/approval-record.js';
import { rejectHeldCalls } from '../approvals/bulk-reject.js';
import { POLICY_TOKENS } from '../policy-settings.js';
import { readDecisionBody } from './decision-body.js';

const ONE = /^\/admin\/approvals\/([^/]+)$/;
const DECIDE = /^\/admin\/approvals\/([^/]+)\/(grant|reject)$/;
const USAGE = "Use GET /admin/approvals[/{id}], POST /admin/approvals/{id}/grant|reject, or POST /admin/approvals/reject (several of one caller's).";
const READER_DECIDES =
  "MCP_ADMIN_TOKEN reads approvals but never decides them: grant or reject with the approver's own bearer token (the tokens file or OIDC), as `mcp-devtools approvals grant ID --server URL` sends MCP_APPROVER_TOKEN; the server names the approver from it.";

/**
 * The approvals admin endpoint, for approvers' tools (the CLI's `--server`) and chat-ops bots, mounted by the server
 * at /admin/approvals after its Host check and authentication (the contribution in index.ts):
 * `GET /admin/approvals` and `/admin/approvals/{id}` with MCP_ADMIN_TOKEN or an approver's own token;
 * `POST /admin/approvals/{id}/grant|reject` (optional JSON body `{"reason": "why"}`, required to reject) and
 * `POST /admin/approvals/reject` (`{"subject": "alice", "ids": [...], "reason": "why"}`: several of one caller's
 * held calls, all of them without `ids`) only with an approver's own token, whose principal is who decides:
 * a member of MCP_APPROVER_GROUPS, never on their own call (the approvals store checks it). Decisions are
 * recorded in the audit log and told to webhook receivers by the approvals store.
 */
export function approvalRoutes({ kernel, logger }: ContributionContext): RouteHandler {
  return adminRoutes(kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals), logger);
}

/** The endpoint over one approvals store (tests mount it on a server of their own). */
export function adminRoutes(approvals: ApprovalStore, logger: Logger): RouteHandler {
  return async (request, response) => {
    try {
      await route(approvals, logger, request.caller, request, response, request.path);
    } catch (error) {
      if (error instanceof StoreError) sendStoreUnavailable(response, logger, error);
      else if (error instanceof ApprovalError) send(response, approvalErrorStatus(error), { error: error.message });
      else throw error;
    }
  };
}

async function route(
  approvals: ApprovalStore,
  logger: Logger,
  caller: RouteCaller,
  request: RouteRequest,
  response: ServerResponse,
  path: string,
): Promise<void> {
  // Only a route declared auth: 'none' has anonymous callers; this one reads the token, so this is belt and braces.
  if (caller.kind === 'anonymous') return send(response, 401, { error: 'Approvals are read and decided with a bearer token.' });
  const method = request.method;
  const one = ONE.exec(path);
  const decide = DECIDE.exec(path);
  const bulk = path === '/admin/approvals/reject' && method === 'POST';
  if (!bulk && method === 'GET' && (path === '/admin/approvals' || one !== null)) {
    // Reading is the admin token's, or an approver's (who may decide what they read); other callers read nothing.
    if (caller.kind === 'person' && !approvals.deciders.isApprover(caller.principal))
      return send(response, 403, { error: approvals.deciders.refusal(caller.principal, { subject: '' }) });
    if (one === null) return send(response, 200, { approvals: await approvals.list() });
    const id = decodedSegment(one[1]!);
    if (id === undefined) return sendMalformed(response, one[1]!);
    const approval = await approvals.get(id);
    return approval === undefined ? send(response, 404, { error: `Approval ${id} was not found or has expired.` }) : send(response, 200, { approval });
  }
  if (!bulk && (decide === null || method !== 'POST')) return send(response, decide === null && one === null ? 404 : 405, { error: USAGE });
  if (caller.kind === 'admin') return send(response, 403, { error: READER_DECIDES });
  const body = await readDecisionBody(request);
  if ('problem' in body) return send(response, 400, { error: body.problem });
  const approver = caller.principal;
  if (bulk) return rejectSeveral(approvals, logger, approver, body, response);
  const [, encoded, verdict] = decide as unknown as [string, string, 'grant' | 'reject'];
  const id = decodedSegment(encoded);
  if (id === undefined) return sendMalformed(response, encoded);
  const approval = verdict === 'grant' ? await approvals.grant(id, approver, body.reason) : await approvals.reject(id, approver, body.reason);
  logger.info({ approval: approval.id, status: approval.status, by: approver.subject, tool: approval.tool, subject: approval.subject }, 'approval decided');
  send(response, 200, { approval });
}

/** Several held calls of one caller rejected with one reason, each by compare-and-set: what became of each. */
async function rejectSeveral(
  approvals: ApprovalStore,
  logger: Logger,
  approver: Principal,
  body: { reason?: string; subject?: string; ids?: string[] },
  response: ServerResponse,
): Promise<void> {
  if (body.subject === undefined) return send(response, 400, { error: 'Name whose held calls to reject: {"subject": "alice", "reason": "..."}.' });
  if (!approvals.deciders.isApprover(approver)) return send(response, 403, { error: approvals.deciders.refusal(approver, { subject: body.subject }) });
  const results = await rejectHeldCalls(approvals, { subject: body.subject, ids: body.ids ?? 'all', approver, reason: body.reason ?? '' });
  const rejected = results.filter((r) => r.ok).length;
  logger.info({ subject: body.subject, rejected, of: results.length, by: approver.subject }, 'approvals rejected in bulk');
  send(response, 200, {
    results: results.map((r) => (r.ok ? { id: r.id, status: r.approval.status } : { id: r.id, error: r.message })),
  });
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
