import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliRun } from './run-cli.js';

/** A folder holding a policy file and a SQLite store, as an operator lays out a server with approvals. */
export interface PolicyDeployment {
  dir: string;
  /** MCP_POLICY_FILE and MCP_STORE_URL for the server, and for the CLI that grants its approvals. */
  env: Record<string, string>;
  /** `mcp-devtools approvals grant ID --by WHO` against the server's store. */
  grant(approvalId: string, by: string): Promise<CliRun>;
  remove(): void;
}

export function policyDeployment(policyYaml: string): PolicyDeployment {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-policy-'));
  writeFileSync(join(dir, 'policy.yaml'), policyYaml);
  const env = { MCP_POLICY_FILE: join(dir, 'policy.yaml'), MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}` };
  return {
    dir,
    env,
    grant: (approvalId, by) => runCli(['approvals', 'grant', approvalId, '--by', by, '--yes'], { cwd: dir, env }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
