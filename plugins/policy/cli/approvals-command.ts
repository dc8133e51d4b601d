import { createInterface } from 'node:readline';
import { Option, type Command } from 'commander';
import { CoreSettings } from '../../../core/config/core-settings.js';
import type { CommandKit, ConfigOptions } from '../../../core/plugin/contributions.js';
import type { ApprovalRecord } from '../approvals/approval-store.js';
import { approverToken, serverApprovals, storeReader, type ApprovalDecider, type ApprovalReader } from './approvals-access.js';
import { describeApproval } from './approval-text.js';

interface ApprovalsOptions extends ConfigOptions {
  server?: string;
  tokenFile?: string;
  by?: string;
  all?: boolean;
  json?: boolean;
  reason?: string;
  subject?: string;
  yes?: boolean;
}

const YOUR_TOKEN = 'your own token in MCP_APPROVER_TOKEN (or --token-file FILE)';

/**
 * `mcp-devtools approvals list|show ID|grant ID|reject ID...`. Reading goes to the server's store (MCP_STORE_URL,
 * sqlite:// or redis://) or, with `--server URL`, to a running server's admin endpoint (the only way to reach
 * the memory store). Deciding always goes to a server, as the approver: the CLI sends their own bearer token
 * (MCP_APPROVER_TOKEN or --token-file, never an argument), from which the server names them, checks they may
 * decide (MCP_APPROVER_GROUPS, never their own call), records the decision and tells the webhook receivers. A
 * decision shows the approval and asks for a confirmation first (`--yes` answers it); a rejection needs `--reason`.
 */
export function registerApprovals(approvals: Command, cli: CommandKit): void {
  const common = (command: Command, server: string): Command =>
    cli
      .withConfigOptions(command)
      .option('--server <url>', server)
      .option('--token-file <path>', 'read your bearer token from the first line of this file instead of MCP_APPROVER_TOKEN');
  const reading = 'a running server (its admin endpoint, with your token or MCP_ADMIN_TOKEN) instead of the store';
  common(approvals.command('list').description('approvals still within their expiry (pending only, unless --all)'), reading)
    .option('--all', 'also granted, rejected and used ones')
    .option('--json', 'print JSON')
    .action(async (options: ApprovalsOptions) => {
      await withReader(cli, options, async (access) => {
        const records = (await access.list()).filter((r) => options.all || r.status === 'pending');
        process.stdout.write(
          options.json ? `${JSON.stringify(records, null, 2)}\n` : records.length === 0 ? 'No approvals.\n' : records.map(describeApproval).join('\n'),
        );
      });
    });
  common(approvals.command('show <id>').description('one approval: the call, who asked, the identity that will act, the argument values'), reading)
    .option('--json', 'print JSON')
    .action(async (id: string, options: ApprovalsOptions) => {
      await withReader(cli, options, async (access) => {
        const record = await access.get(id);
        if (record === undefined) throw new Error(`Approval ${id} was not found or has expired.`);
        process.stdout.write(options.json ? `${JSON.stringify(record, null, 2)}\n` : describeApproval(record));
      });
    });
  const deciding = 'the running server that decides (required): it names you from your token, audits the decision and tells the receivers';
  const decision = (command: Command): Command =>
    common(command, deciding)
      .option('--yes', 'decide without asking for a confirmation')
      // Gone in 0.3.0: kept only to say what replaced it.
      .addOption(new Option('--by <name>').hideHelp());
  decision(approvals.command('grant <id>').description('let the held call run once, when its caller retries it'))
    .option('--reason <text>', 'why (told to the caller, recorded in the audit log)')
    .action(async (id: string, options: ApprovalsOptions) => {
      await withDecider(options, async (access) => {
        await confirm(access, [id], `Grant ${id}?`, options);
        const record = await access.grant(id, options.reason);
        process.stdout.write(`${record.id} granted by ${record.decidedBy}; the caller's next identical call runs once, until ${record.expiresAt}.\n`);
      });
    });
  decision(approvals.command('reject [ids...]').description("refuse held calls: the ones named, or with --subject all of one caller's"))
    .requiredOption('--reason <text>', 'why (required: told to the caller, recorded in the audit log)')
    .option('--subject <name>', "reject this caller's held calls: those named, or all of them")
    .action(async (ids: string[], options: ApprovalsOptions) => {
      await withDecider(options, async (access) => {
        if (ids.length === 0 && options.subject === undefined)
          throw new Error("Name the approvals to reject, or --subject NAME for all of one caller's held calls.");
        if (options.subject === undefined && ids.length === 1) {
          await confirm(access, ids, `Reject ${ids[0]}?`, options);
          const record = await access.reject(ids[0]!, options.reason);
          process.stdout.write(`${record.id} rejected by ${record.decidedBy}: ${record.decisionReason}\n`);
          return;
        }
        const subject = options.subject ?? (await subjectOf(access, ids));
        const named = ids.length === 0 ? 'all' : ids;
        const targets = named === 'all' ? (await access.list()).filter((r) => r.status === 'pending' && r.subject === subject).map((r) => r.id) : named;
        await confirm(access, targets, `Reject ${targets.length} held call${targets.length === 1 ? '' : 's'} of ${subject}?`, options);
        const results = await access.rejectSeveral(subject, named, options.reason);
        for (const r of results) process.stdout.write('status' in r ? `${r.id} ${r.status}\n` : `${r.id} not rejected: ${r.error}\n`);
        if (results.some((r) => 'error' in r)) process.exitCode = 1;
      });
    });
}

async function withReader(cli: CommandKit, options: ApprovalsOptions, work: (access: ApprovalReader) => Promise<void>): Promise<void> {
  const settings = await cli.settings(options);
  let access: ApprovalReader;
  if (options.server === undefined) access = await storeReader(settings, cli.openStore);
  else {
    const token = (await approverToken(options.tokenFile, process.env)) || settings.of(CoreSettings).MCP_ADMIN_TOKEN;
    if (token === '') throw new Error(`--server needs a token: ${YOUR_TOKEN}, or MCP_ADMIN_TOKEN to read.`);
    access = serverApprovals(options.server, token);
  }
  try {
    await work(access);
  } finally {
    await access.close();
  }
}

async function withDecider(options: ApprovalsOptions, work: (access: ApprovalDecider) => Promise<void>): Promise<void> {
  if (options.by !== undefined) throw new Error(`--by is gone: the server names who decides from their token. Send ${YOUR_TOKEN}, with --server URL.`);
  if (options.server === undefined)
    throw new Error(
      `Deciding goes through a running server, which checks who you are, audits the decision and tells the webhook receivers: add --server URL, with ${YOUR_TOKEN}.`,
    );
  const token = await approverToken(options.tokenFile, process.env);
  if (token === '') throw new Error(`Grant and reject as yourself: set ${YOUR_TOKEN}. MCP_ADMIN_TOKEN never decides.`);
  await work(serverApprovals(options.server, token));
}

/** The one caller whose held calls `ids` are (several ids without --subject must all be one caller's). */
async function subjectOf(access: ApprovalReader, ids: readonly string[]): Promise<string> {
  const subjects = new Set((await Promise.all(ids.map((id) => access.get(id)))).flatMap((r) => (r === undefined ? [] : [r.subject])));
  if (subjects.size !== 1) throw new Error('Several approvals are rejected at once for one caller: add --subject NAME, or reject them one by one.');
  return [...subjects][0]!;
}

/**
 * Shows what is about to be decided and reads the answer from stdin (a terminal, or a pipe: `echo y |`);
 * anything but y or yes, or no answer, decides nothing. `--yes` skips it.
 */
async function confirm(access: ApprovalReader, ids: readonly string[], question: string, options: ApprovalsOptions): Promise<void> {
  if (options.yes) return;
  const records = (await Promise.all(ids.map((id) => access.get(id)))).filter((r): r is ApprovalRecord => r !== undefined);
  process.stderr.write(`${records.map(describeApproval).join('\n')}\n${question} [y/N] `);
  const lines = createInterface({ input: process.stdin, terminal: false });
  const answer = await new Promise<string | undefined>((resolve) => {
    lines.once('line', resolve);
    lines.once('close', () => resolve(undefined));
  });
  lines.close();
  if (!/^\s*y(es)?\s*$/i.test(answer ?? '')) throw new Error('Nothing was decided: answer y to confirm, or pass --yes.');
}
