import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { systemClock } from '../../core/store/key-value-store.js';
import { ApprovalStore, type ApprovalRecord } from '../../plugins/policy/index.js';
import { resolveConfig } from '../bootstrap/resolve-config.js';
import { openConfiguredStore } from '../bootstrap/start-kernel.js';
import { invocationFrom, withConfigOptions, type ConfigOptions } from './common-options.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { PolicySettings } from '../../plugins/policy/index.js';

interface ApprovalsOptions extends ConfigOptions {
  server?: string;
  by?: string;
  all?: boolean;
  json?: boolean;
}

/** What the command needs of approvals, wherever they are kept. */
interface Approvals {
  list(): Promise<ApprovalRecord[]>;
  grant(id: string, by: string): Promise<ApprovalRecord>;
  reject(id: string, by: string): Promise<ApprovalRecord>;
  close(): Promise<void>;
}

/**
 * `mcp-devtools approvals list|grant ID|reject ID`: against the server's store (MCP_STORE_URL, sqlite:// or
 * redis://), or with `--server URL` against a running server's admin endpoint (MCP_ADMIN_TOKEN), which is the
 * only way to reach approvals in the memory store.
 */
export function registerApprovals(program: Command): void {
  const approvals = program.command('approvals').description('list, grant or reject calls held for approval by the policy');
  const common = (command: Command): Command =>
    withConfigOptions(command).option('--server <url>', 'a running server (its admin endpoint, with MCP_ADMIN_TOKEN) instead of the store');
  common(approvals.command('list').description('approvals still within their expiry (pending only, unless --all)'))
    .option('--all', 'also granted, rejected and used ones')
    .option('--json', 'print JSON')
    .action(async (options: ApprovalsOptions) => {
      await withApprovals(options, async (access) => {
        const records = (await access.list()).filter((r) => options.all || r.status === 'pending');
        process.stdout.write(
          options.json ? `${JSON.stringify(records, null, 2)}\n` : records.length === 0 ? 'No approvals.\n' : records.map(describe).join('\n'),
        );
      });
    });
  for (const verdict of ['grant', 'reject'] as const) {
    common(
      approvals.command(`${verdict} <id>`).description(verdict === 'grant' ? 'let the held call run once, when its caller retries it' : 'refuse the held call'),
    )
      .option('--by <name>', 'who decides (default: your user name)')
      .action(async (id: string, options: ApprovalsOptions) => {
        await withApprovals(options, async (access) => {
          const by = options.by ?? userInfo().username;
          const record = verdict === 'grant' ? await access.grant(id, by) : await access.reject(id, by);
          process.stdout.write(`${record.id} ${record.status} by ${by}; holds until ${record.expiresAt}.\n`);
        });
      });
  }
}

async function withApprovals(options: ApprovalsOptions, work: (access: Approvals) => Promise<void>): Promise<void> {
  const { settings } = await resolveConfig(invocationFrom(options));
  let access: Approvals;
  if (options.server !== undefined) {
    access = adminEndpoint(options.server, settings.of(CoreSettings).MCP_ADMIN_TOKEN);
  } else {
    const url = settings.of(CoreSettings).MCP_STORE_URL;
    if (url.startsWith('memory:')) {
      throw new Error(
        'MCP_STORE_URL is memory://, so approvals live inside the server process. Pass --server http://HOST:PORT (with MCP_ADMIN_TOKEN set), or give the server and this command the same sqlite:// or redis:// store.',
      );
    }
    const store = await openConfiguredStore(settings);
    const approvals = new ApprovalStore(store, systemClock, settings.of(PolicySettings).MCP_APPROVAL_TTL_SECONDS * 1000);
    access = {
      list: () => approvals.list(),
      grant: (id, by) => approvals.grant(id, by),
      reject: (id, by) => approvals.reject(id, by),
      close: () => store.close(),
    };
  }
  try {
    await work(access);
  } finally {
    await access.close();
  }
}

/** The admin endpoint of a running server, `/admin/approvals`. */
function adminEndpoint(server: string, token: string): Approvals {
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
    if (!response.ok) throw new Error(`${server} answered ${response.status}: ${answer.error ?? 'no reason given'}`);
    return answer;
  };
  return {
    list: async () => ((await call(base.href, 'GET')) as { approvals: ApprovalRecord[] }).approvals,
    grant: async (id, by) => ((await call(`${encodeURIComponent(id)}/grant`, 'POST', { by })) as { approval: ApprovalRecord }).approval,
    reject: async (id, by) => ((await call(`${encodeURIComponent(id)}/reject`, 'POST', { by })) as { approval: ApprovalRecord }).approval,
    close: async () => {},
  };
}

function describe(r: ApprovalRecord): string {
  const request = r.request ? ` ${r.request.method} ${r.request.path}` : '';
  const decided = r.decidedBy ? ` by ${r.decidedBy}` : '';
  return [
    `${r.id}  ${r.status}${decided}  until ${r.expiresAt}`,
    `  ${r.subject} [${r.groups.join(', ')}] called ${r.tool}${request}`,
    `  rule ${r.ruleId ?? '(none)'}: ${r.reason}`,
    `  arguments: ${r.arguments}`,
    '',
  ].join('\n');
}
