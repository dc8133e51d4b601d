import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokensFileYaml } from './auth-fixture.js';
import { runCli, type CliRun } from './run-cli.js';
import { startHttpServer, type HttpServerProcess } from './sdk-client.js';

/** The approvers' own tokens: members of MCP_APPROVER_GROUPS=approvers, who run no agent. */
export const DECIDER_TOKENS = { olga: 'tok-olga-decides-5c1e93', paul: 'tok-paul-decides-a07d42' };

export interface DecisionServer {
  /** http://127.0.0.1:PORT: what `approvals grant --server` is given. */
  origin: string;
  /** `mcp-devtools approvals grant ID --server ORIGIN --yes` as the approver, their token in MCP_APPROVER_TOKEN. */
  grant(approvalId: string, by?: keyof typeof DECIDER_TOKENS): Promise<CliRun>;
  stop(): Promise<void>;
}

/**
 * How a stdio deployment decides its held calls (docs/policy.md, "Deciding"): the same configuration served over
 * HTTP beside it, on the same store, with bearer tokens and approvers; the CLI decides through it as the approver,
 * and the server audits the decision (in its own chain, MCP_AUDIT_WRITER=approvals) and tells the receivers.
 */
export async function startDecisionServer(options: { cwd: string; env: Record<string, string> }): Promise<DecisionServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-decides-'));
  const approvers = Object.entries(DECIDER_TOKENS).map(([subject, token]) => ({ token, subject, groups: ['approvers'] }));
  writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml(approvers));
  const server: HttpServerProcess = await startHttpServer({
    cwd: options.cwd,
    env: {
      ...options.env,
      MCP_AUTH_MODE: 'tokens',
      MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
      MCP_APPROVER_GROUPS: 'approvers',
      ...(options.env.MCP_AUDIT_LOG === undefined ? {} : { MCP_AUDIT_WRITER: 'approvals' }),
    },
  });
  const origin = server.url.replace(/\/mcp$/, '');
  return {
    origin,
    grant: (approvalId, by = 'olga') =>
      runCli(['approvals', 'grant', approvalId, '--server', origin, '--yes'], { cwd: options.cwd, env: { MCP_APPROVER_TOKEN: DECIDER_TOKENS[by] } }),
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One grant through a decision server started for it, and stopped after: what a stdio test needs of one. */
export async function grantThroughServer(options: { cwd: string; env: Record<string, string> }, approvalId: string): Promise<CliRun> {
  const decisions = await startDecisionServer(options);
  try {
    return await decisions.grant(approvalId);
  } finally {
    await decisions.stop();
  }
}
