import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { kitClient } from '../../../../server/testing/sdk-client.js';
import { REPO_ROOT, TEST_MODULES } from '../../../support/paths.js';

export type ReferencePackage = 'jira' | 'bitbucket';

export interface ReferenceServer {
  client: Client;
  /** Where its raw-response files went (its hard-coded /tmp/mcp, redirected by the preload). */
  rawDir: string;
  stderr: string[];
  /** Its process's id (the benchmark reads its CPU time); undefined once it has gone. */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

const PRELOAD = join(REPO_ROOT, 'test/plugins/atlassian/differential/preload.cjs');

/**
 * A published reference server (`@aashari/mcp-server-atlassian-<product>`, of the test package) over stdio with
 * the official SDK client, its upstream hosts pointed at the loopback `upstream`. A private HOME and working
 * directory keep its log files, `.env` and `~/.mcp/configs.json` lookups away from the developer's.
 */
export async function startReferenceServer(product: ReferencePackage, upstream: string, credentials: Record<string, string>): Promise<ReferenceServer> {
  const home = mkdtempSync(join(tmpdir(), `reference-${product}-`));
  const rawDir = join(home, 'raw');
  const site = credentials.ATLASSIAN_SITE_NAME ?? 'acme';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', PRELOAD, join(TEST_MODULES, `@aashari/mcp-server-atlassian-${product}/dist/index.js`)],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      TMPDIR: home,
      ...credentials,
      DIFF_UPSTREAM: upstream,
      DIFF_REWRITE_ORIGINS: `https://${site}.atlassian.net,https://api.bitbucket.org`,
      DIFF_RAW_DIR: rawDir,
    },
    cwd: home,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    // Its debug log is chatty; keep the tail for a failing test's message.
    stderr.push(chunk.toString('utf8'));
    if (stderr.length > 200) stderr.splice(0, stderr.length - 200);
  });
  // The reference servers are built on the 1.x SDK: they speak 2025-era revisions only.
  const client = kitClient('mcp-devtools-differential', { mode: 'legacy' });
  await client.connect(transport);
  return {
    client,
    rawDir,
    stderr,
    get pid() {
      return transport.pid ?? undefined;
    },
    close: () => client.close(),
  };
}
