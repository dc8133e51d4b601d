import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startReferenceServer } from '../plugins/atlassian/differential/reference-server.js';
import { connectStdio } from '../support/sdk-client.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, TYPICAL_JIRA_JQ, jiraSearchBody, serveJiraSearch } from './jira-bodies.js';
import { since, summarize, type Summary } from './stats.js';

/** The servers a row times: ours always, the baseline build with --before, the reference for context. */
export type PerCallServer = 'ours' | 'before' | 'reference';

export interface PerCallRow {
  bodyBytes: number;
  format: 'toon' | 'json';
  jq: boolean;
  /** Milliseconds a call, per server measured. */
  times: Partial<Record<PerCallServer, Summary>> & { ours: Summary };
}

export interface PerCallResult {
  rows: PerCallRow[];
  /** Calls each server answered before the measured ones. */
  warmUpCalls: number;
}

export interface PerCallOptions {
  sizes: number[];
  /** Calls per server and row, by body size. */
  iterations(bytes: number): number;
  /** Calls each server answers first: V8 keeps compiling hot code for about two thousand calls. */
  warmUpCalls: number;
  /** dist/cli.js of the baseline build. */
  beforeCli?: string;
}

interface Running {
  name: PerCallServer;
  client: Client;
  close(): Promise<void>;
}

/**
 * jira_get over stdio with the official SDK client: ours, the baseline build and
 * @aashari/mcp-server-atlassian-jira@3.3.0, all fed the same bytes by one loopback mock, for every page size,
 * format and with or without the typical jq. Calls take turns, the order rotated each round, so whatever else
 * the machine does slows every server alike.
 */
export async function benchPerCall(options: PerCallOptions): Promise<PerCallResult> {
  const mock = await MockUpstream.start();
  const env = { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, LOG_LEVEL: 'warn' };
  const servers: Running[] = [];
  try {
    // The reference speaks only 2025-era revisions: every server negotiates 2025-11-25 with the same client.
    const ours = await connectStdio({ env, versionNegotiation: { mode: 'legacy' } });
    servers.push({ name: 'ours', client: ours.client, close: ours.close });
    if (options.beforeCli !== undefined) {
      const before = await connectStdio({ cliPath: options.beforeCli, env, versionNegotiation: { mode: 'legacy' } });
      servers.push({ name: 'before', client: before.client, close: before.close });
    }
    // Context only: without it (not installed, say) the rows still hold ours and before.
    const reference = await startReferenceServer('jira', mock.url, JIRA_CREDENTIALS).catch((error: unknown) => {
      process.stderr.write(`  the reference server did not start, so its column is empty: ${(error as Error).message}\n`);
      return undefined;
    });
    if (reference !== undefined) servers.push({ name: 'reference', client: reference.client, close: reference.close });

    serveJiraSearch(mock, jiraSearchBody(20 * 1024));
    for (let i = 0; i < options.warmUpCalls; i++) for (const s of servers) await callOnce(s.client, argsOf(i % 2 === 0 ? 'toon' : 'json', i % 4 >= 2));

    const rows: PerCallRow[] = [];
    for (const bytes of options.sizes) {
      const body = jiraSearchBody(bytes);
      serveJiraSearch(mock, body);
      for (const format of ['toon', 'json'] as const) {
        for (const jq of [false, true]) {
          const args = argsOf(format, jq);
          for (const s of servers) await callOnce(s.client, args);
          const samples = servers.map(() => [] as number[]);
          for (let i = 0; i < options.iterations(bytes); i++) {
            for (let k = 0; k < servers.length; k++) {
              const at = (k + i) % servers.length;
              samples[at]!.push(await callOnce(servers[at]!.client, args));
            }
          }
          const times = Object.fromEntries(servers.map((s, at) => [s.name, summarize(samples[at]!)])) as PerCallRow['times'];
          rows.push({ bodyBytes: body.length, format, jq, times });
          const shown = servers.map((s) => `${s.name} ${times[s.name]!.median.toFixed(2)} ms`).join(', ');
          process.stderr.write(`  jira_get ${body.length} B ${format}${jq ? ' +jq' : ''}: ${shown}\n`);
        }
      }
    }
    return { rows, warmUpCalls: options.warmUpCalls };
  } finally {
    await Promise.allSettled(servers.map((s) => s.close()));
    await mock.close();
  }
}

function argsOf(format: 'toon' | 'json', jq: boolean): Record<string, unknown> {
  return { path: SEARCH_PATH, queryParams: { maxResults: '50' }, outputFormat: format, ...(jq ? { jq: TYPICAL_JIRA_JQ } : {}) };
}

/** Milliseconds of one tools/call, failing loudly if the server answered with an error. */
async function callOnce(client: Client, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = (await client.callTool({ name: 'jira_get', arguments: args })) as CallToolResult;
  const took = since(started);
  if (result.isError) throw new Error(`jira_get failed during the benchmark: ${JSON.stringify(result.content).slice(0, 500)}`);
  return took;
}
