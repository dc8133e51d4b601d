import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDecisionServer, type DecisionServer } from './decision-server.js';
import type { CliRun } from './run-cli.js';

/** A folder holding a policy file and a SQLite store, as an operator lays out a stdio server with approvals. */
export interface PolicyDeployment {
  dir: string;
  /** MCP_POLICY_FILE and MCP_STORE_URL for the server, and for the decision server beside it. */
  env: Record<string, string>;
  /**
   * `mcp-devtools approvals grant ID --server URL` as approver `by`, through an HTTP server on the same store
   * (started at the first grant, with `serverEnv`: the stdio server's settings).
   */
  grant(approvalId: string, by: 'olga' | 'paul', serverEnv: Record<string, string>): Promise<CliRun>;
  close(): Promise<void>;
}

export function policyDeployment(policyYaml: string): PolicyDeployment {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-policy-'));
  writeFileSync(join(dir, 'policy.yaml'), policyYaml);
  const env = { MCP_POLICY_FILE: join(dir, 'policy.yaml'), MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}` };
  let decisions: Promise<DecisionServer> | undefined;
  return {
    dir,
    env,
    grant: async (approvalId, by, serverEnv) => (await (decisions ??= startDecisionServer({ cwd: dir, env: serverEnv }))).grant(approvalId, by),
    close: async () => {
      await (await decisions?.catch(() => undefined))?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
