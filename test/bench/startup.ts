import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH, REPO_ROOT } from '../support/paths.js';
import { JIRA_CREDENTIALS } from './jira-bodies.js';
import { summarize, type Summary } from './stats.js';

export interface StartupResult {
  ours: Summary;
  reference: Summary;
  /** `node -e 0` from spawn to exit: what any Node process costs before its own code runs. */
  bareNode: Summary;
}

const REFERENCE_ENTRY = join(REPO_ROOT, 'node_modules/@aashari/mcp-server-atlassian-jira/dist/index.js');
const PRELOAD = join(REPO_ROOT, 'test/plugins/atlassian/differential/preload.cjs');

/**
 * Milliseconds from spawning the server to the answer of its first tools/list, over stdio with the official
 * SDK client (initialize, then tools/list), ours and the reference alternating. Each start gets a fresh
 * home and working directory, so nothing a previous start left behind helps the next.
 */
export async function benchStartup(runs: number): Promise<StartupResult> {
  const samples = { ours: [] as number[], reference: [] as number[], bareNode: [] as number[] };
  for (let i = 0; i < runs + 1; i++) {
    const ours = await firstToolsList([CLI_PATH], { ...JIRA_CREDENTIALS, LOG_LEVEL: 'warn' });
    const reference = await firstToolsList(['-r', PRELOAD, REFERENCE_ENTRY], {
      ...JIRA_CREDENTIALS,
      DIFF_UPSTREAM: 'http://127.0.0.1:9',
      DIFF_REWRITE_ORIGINS: 'https://acme.atlassian.net',
    });
    const bare = await bareNode();
    if (i === 0) continue; // the first start of each pays for a cold file cache
    samples.ours.push(ours);
    samples.reference.push(reference);
    samples.bareNode.push(bare);
  }
  return { ours: summarize(samples.ours), reference: summarize(samples.reference), bareNode: summarize(samples.bareNode) };
}

async function firstToolsList(args: string[], env: Record<string, string>): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-devtools-startup-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: home, DIFF_RAW_DIR: join(home, 'raw'), MCP_RAW_RESPONSE_DIR: join(home, 'raw'), ...env },
    cwd: home,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-devtools-bench', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport);
  const { tools } = await client.listTools();
  const took = performance.now() - started;
  await client.close();
  if (tools.length === 0) throw new Error(`${args.at(-1)} listed no tools`);
  return took;
}

function bareNode(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - started));
  });
}
