import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import { parseEgressAllow } from '../../core/http/egress-guard.js';
import { createLogger } from '../../core/logging/logger.js';
import { systemClock } from '../../core/store/key-value-store.js';
import { ApprovalNotifier, ApprovalStore, PolicySettings, rejectHeldCalls, type ApprovalRecord, type Approver } from '../../plugins/policy/index.js';
import { openConfiguredStore } from '../bootstrap/start-kernel.js';
import { ConsoleSettings } from '../console/console-settings.js';
import { cliAuditSink } from './cli-audit-chain.js';

/** What became of one approval of a bulk rejection. */
export type Rejected = { id: string; status: string } | { id: string; error: string };

/** What `mcp-devtools approvals` needs of approvals, wherever they are kept. */
export interface Approvals {
  list(): Promise<ApprovalRecord[]>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  grant(id: string, by: string, reason: string | undefined): Promise<ApprovalRecord>;
  reject(id: string, by: string, reason: string | undefined): Promise<ApprovalRecord>;
  rejectSeveral(subject: string, ids: string[] | 'all', by: string, reason: string | undefined): Promise<Rejected[]>;
  close(): Promise<void>;
}

/** How long the CLI waits, before it exits, for the webhook events of its decisions (and their retries). */
const DRAIN_MS = 15_000;

/**
 * Approvals in the server's store (MCP_STORE_URL, sqlite:// or redis://). Decisions made here are what the
 * server would make of them: recorded in the audit log (MCP_AUDIT_LOG, in the CLI's own chain of it) and told
 * to the webhook receivers (MCP_APPROVAL_WEBHOOK_URL), whose deliveries the command waits for before it exits.
 */
export async function storeApprovals(settings: Settings): Promise<Approvals> {
  const url = settings.of(CoreSettings).MCP_STORE_URL;
  if (url.startsWith('memory:')) {
    throw new Error(
      'MCP_STORE_URL is memory://, so approvals live inside the server process. Pass --server http://HOST:PORT (with MCP_ADMIN_TOKEN set), or give the server and this command the same sqlite:// or redis:// store.',
    );
  }
  const own = settings.of(PolicySettings);
  const audit = own.MCP_AUDIT_LOG === '' ? undefined : cliAuditSink(own.MCP_AUDIT_LOG);
  const egressAllow = parseEgressAllow(settings.of(CoreSettings).MCP_EGRESS_ALLOW);
  const receivers = ApprovalNotifier.receivers(own.MCP_APPROVAL_WEBHOOK_URL, egressAllow);
  const logger = createLogger({ level: 'warn', secrets: settings.secretValues() });
  const notifier =
    receivers.length === 0
      ? undefined
      : new ApprovalNotifier(receivers, own.MCP_APPROVAL_WEBHOOK_SECRET, { clock: systemClock, logger, audit: () => audit, egressAllow });
  notifier?.linkTo(consoleUrl(settings));
  const store = await openConfiguredStore(settings);
  const approvals = new ApprovalStore(store, systemClock, own.MCP_APPROVAL_TTL_SECONDS * 1000, own.MCP_APPROVAL_MAX_PENDING, {
    events: notifier,
    audit: () => audit,
  });
  const cli = (by: string): Approver => ({ subject: by, groups: [], via: 'cli' });
  return {
    list: () => approvals.list(),
    get: (id) => approvals.get(id),
    grant: (id, by, reason) => approvals.grant(id, cli(by), reason),
    reject: (id, by, reason) => approvals.reject(id, cli(by), reason),
    rejectSeveral: async (subject, ids, by, reason) =>
      (await rejectHeldCalls(approvals, { subject, ids, approver: cli(by), reason: reason ?? '' })).map((r) =>
        r.ok ? { id: r.id, status: r.approval.status } : { id: r.id, error: r.message },
      ),
    close: async () => {
      if (notifier !== undefined) {
        await notifier.drain(DRAIN_MS);
        notifier.close();
      }
      await store.close();
    },
  };
}

/** The console link of webhook events sent from the CLI: the server's MCP_CONSOLE_PUBLIC_URL, when the console is on. */
function consoleUrl(settings: Settings): string | undefined {
  const own = settings.of(ConsoleSettings);
  return own.MCP_CONSOLE && own.MCP_CONSOLE_PUBLIC_URL !== '' ? own.MCP_CONSOLE_PUBLIC_URL : undefined;
}

/** The admin endpoint of a running server, `/admin/approvals`: the server records and tells of the decisions. */
export function adminEndpoint(server: string, token: string): Approvals {
  if (token === '') throw new Error("--server needs MCP_ADMIN_TOKEN (the server's admin token) in the environment or a --set.");
  const base = new URL(server);
  base.pathname = '/admin/approvals';
  const call = async (path: string, method: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(new URL(path, `${base.href}/`), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    if (response.status === 404 && method === 'GET' && path !== base.href) return undefined;
    if (!response.ok) throw new Error(`${server} answered ${response.status}: ${answer.error ?? 'no reason given'}`);
    return answer;
  };
  const decide = async (id: string, verdict: string, by: string, reason: string | undefined): Promise<ApprovalRecord> =>
    ((await call(`${encodeURIComponent(id)}/${verdict}`, 'POST', { by, ...(reason === undefined ? {} : { reason }) })) as { approval: ApprovalRecord })
      .approval;
  return {
    list: async () => ((await call(base.href, 'GET')) as { approvals: ApprovalRecord[] }).approvals,
    get: async (id) => ((await call(encodeURIComponent(id), 'GET')) as { approval: ApprovalRecord } | undefined)?.approval,
    grant: (id, by, reason) => decide(id, 'grant', by, reason),
    reject: (id, by, reason) => decide(id, 'reject', by, reason),
    rejectSeveral: async (subject, ids, by, reason) =>
      ((await call('reject', 'POST', { subject, by, reason, ...(ids === 'all' ? {} : { ids }) })) as { results: Rejected[] }).results,
    close: async () => {},
  };
}
