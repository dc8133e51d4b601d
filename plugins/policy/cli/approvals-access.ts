import { readFile } from 'node:fs/promises';
import { CoreSettings } from '../../../core/config/core-settings.js';
import type { Settings } from '../../../core/config/settings.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { systemClock } from '../../../core/store/key-value-store.js';
import { ApprovalStore, type ApprovalRecord } from '../approvals/approval-store.js';
import { PolicySettings } from '../policy-settings.js';

/** What became of one approval of a bulk rejection. */
export type Rejected = { id: string; status: string } | { id: string; error: string };

/** What `mcp-devtools approvals list|show` reads, from the store or from a server. */
export interface ApprovalReader {
  list(): Promise<ApprovalRecord[]>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  close(): Promise<void>;
}

/** What `grant` and `reject` need: a running server, which knows who decides from their token. */
export interface ApprovalDecider extends ApprovalReader {
  grant(id: string, reason: string | undefined): Promise<ApprovalRecord>;
  reject(id: string, reason: string | undefined): Promise<ApprovalRecord>;
  rejectSeveral(subject: string, ids: string[] | 'all', reason: string | undefined): Promise<Rejected[]>;
}

/**
 * Approvals read from the server's store (MCP_STORE_URL, sqlite:// or redis://), and only read: deciding goes
 * through a server, which authenticates the approver, audits the decision and tells the webhook receivers.
 * Reading gives nothing that opening the store does not already give.
 */
export async function storeReader(settings: Settings, openStore: (settings: Settings) => Promise<KeyValueStore>): Promise<ApprovalReader> {
  const url = settings.of(CoreSettings).MCP_STORE_URL;
  if (url.startsWith('memory:')) {
    throw new Error(
      'MCP_STORE_URL is memory://, so approvals live inside the server process. Pass --server http://HOST:PORT (with your token in MCP_APPROVER_TOKEN, or MCP_ADMIN_TOKEN to read), or give the server and this command the same sqlite:// or redis:// store.',
    );
  }
  const store = await openStore(settings);
  const approvals = new ApprovalStore(store, systemClock, settings.of(PolicySettings).MCP_APPROVAL_TTL_SECONDS * 1000);
  return { list: () => approvals.list(), get: (id) => approvals.get(id), close: () => store.close() };
}

/**
 * The bearer token the CLI sends a server: the approver's own (MCP_APPROVER_TOKEN, or the first line of
 * `--token-file`; never an argument, which other users of the machine can read), else for reading MCP_ADMIN_TOKEN.
 */
export async function approverToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  if (tokenFile === undefined) return env.MCP_APPROVER_TOKEN?.trim() ?? '';
  const text = await readFile(tokenFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`--token-file ${tokenFile} cannot be read (${error.code ?? error.message}).`);
  });
  const token = text.split('\n', 1)[0]!.trim();
  if (token === '') throw new Error(`--token-file ${tokenFile} is empty: put your bearer token on its first line.`);
  return token;
}

/**
 * The admin endpoint of a running server, `/admin/approvals`, sending `token` as the bearer token: the server
 * names the approver from it, checks they may decide, records the decision and tells of it.
 */
export function serverApprovals(server: string, token: string): ApprovalDecider {
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
  const decide = async (id: string, verdict: string, reason: string | undefined): Promise<ApprovalRecord> =>
    ((await call(`${encodeURIComponent(id)}/${verdict}`, 'POST', reason === undefined ? {} : { reason })) as { approval: ApprovalRecord }).approval;
  return {
    list: async () => ((await call(base.href, 'GET')) as { approvals: ApprovalRecord[] }).approvals,
    get: async (id) => ((await call(encodeURIComponent(id), 'GET')) as { approval: ApprovalRecord } | undefined)?.approval,
    grant: (id, reason) => decide(id, 'grant', reason),
    reject: (id, reason) => decide(id, 'reject', reason),
    rejectSeveral: async (subject, ids, reason) =>
      ((await call('reject', 'POST', { subject, reason, ...(ids === 'all' ? {} : { ids }) })) as { results: Rejected[] }).results,
    close: async () => {},
  };
}
