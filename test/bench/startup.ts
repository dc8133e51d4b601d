import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH } from '../support/paths.js';
import { JIRA_CREDENTIALS } from './jira-bodies.js';
import { summarize, type Summary } from './stats.js';

export interface StartupResult {
  /** The Node that ran both servers (`v24.x.y`). */
  node: string;
  ours: Summary;
  /** The baseline build, when one was given. */
  before?: Summary;
  /** The bare SDK server (sdk-floor/), when one was given: what no server made with this SDK starts under. */
  sdkFloor?: Summary;
  /** Files in ours' compile cache after its first start: 0 where this Node has none (before 22.1). */
  oursCacheFiles: number;
}

interface Server {
  cliPath: string;
  /** HOME, XDG_CACHE_HOME, TMPDIR and working directory of every start: what one start caches, the next finds. */
  home: string;
}

/**
 * Milliseconds from spawning a server to the answer of its first tools/list (initialize, then tools/list,
 * over stdio with the official SDK client), ours, the baseline build and the bare SDK server taking turns, all
 * run by the Node at `node`. Starts are warm: each server keeps one home for all its starts, and its first start,
 * not counted, fills whatever it caches there (ours and the SDK's: Node's compile cache, from 22.1 on; the
 * baseline: its own code cache).
 */
export async function benchStartup(node: string, runs: number, beforeCli?: string, sdkFloorCli?: string): Promise<StartupResult> {
  const paths = [CLI_PATH, beforeCli ?? null, sdkFloorCli ?? null].filter((path): path is string => path !== null);
  const servers: Server[] = paths.map((cliPath) => ({
    cliPath,
    home: mkdtempSync(join(tmpdir(), 'mcp-devtools-startup-')),
  }));
  const samples = servers.map(() => [] as number[]);
  const summaryOf = (cliPath: string | undefined): Summary | undefined => (cliPath === undefined ? undefined : summarize(samples[paths.indexOf(cliPath)]!));
  let oursCacheFiles = 0;
  for (let i = 0; i <= runs; i++) {
    // Every other round the order is reversed, so that none always follows the same process.
    const order = i % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
    for (const at of order) {
      const took = await firstToolsList(node, servers[at]!);
      if (i > 0) samples[at]!.push(took);
    }
    if (i === 0) oursCacheFiles = filesUnder(join(servers[0]!.home, 'cache'));
  }
  return {
    node: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
    ours: summarize(samples[0]!),
    before: summaryOf(beforeCli),
    sdkFloor: summaryOf(sdkFloorCli),
    oursCacheFiles,
  };
}

async function firstToolsList(node: string, server: Server): Promise<number> {
  const transport = new StdioClientTransport({
    command: node,
    args: [server.cliPath],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: server.home,
      XDG_CACHE_HOME: join(server.home, 'cache'),
      TMPDIR: server.home,
      MCP_RAW_RESPONSE_DIR: join(server.home, 'raw'),
      ...JIRA_CREDENTIALS,
      LOG_LEVEL: 'warn',
    },
    cwd: server.home,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-devtools-bench', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport);
  const { tools } = await client.listTools();
  const took = performance.now() - started;
  // Closing ends the server's stdin: it exits on its own, writing its caches as it goes.
  await client.close();
  if (tools.length === 0) throw new Error(`${server.cliPath} listed no tools`);
  return took;
}

function filesUnder(folder: string): number {
  try {
    return readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  } catch {
    return 0;
  }
}
