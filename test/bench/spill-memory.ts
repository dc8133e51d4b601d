import { readFileSync } from 'node:fs';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, jiraSearchBody, serveJiraSearch } from './jira-bodies.js';
import { median, MiB } from './stats.js';

/**
 * How the server is started before the big value: `fresh` answers one small call (the way an operator sizes a
 * memory limit: the first big value a server meets), `warm` answers WARM_CALLS of them first.
 */
export type SpillStart = 'fresh' | 'warm';

export interface SpillMemoryRow {
  /** `ours`, or `before`: the baseline build. */
  server: string;
  start: SpillStart;
  /** Fresh servers measured; the figures are their medians. */
  runs: number;
  /** The serialized structured value the call produced (what went to the artifact). */
  valueBytes: number;
  /** Resident set of the server after start-up and its small calls (one when fresh, WARM_CALLS when warm). */
  idleRssBytes: number;
  /** The kernel's high-water mark (VmHWM) once the artifact was read back. */
  peakRssBytes: number;
}

/**
 * Peak resident memory of a server (the built CLI over Streamable HTTP, memory store) while one client calls
 * jira_get on a 16 MiB Jira search page with structured output on: the value spills to an artifact, which the
 * client then reads back whole with artifact_read and checks byte for byte. A fresh server per measurement, so
 * the high-water mark is this scenario's alone; each start (fresh, then warm) and server take turns, `runs`
 * times.
 */
export async function benchSpillMemory(
  servers: Array<{ label: string; cliPath?: string }>,
  runs: number,
  starts: readonly SpillStart[] = ['fresh', 'warm'],
): Promise<SpillMemoryRow[]> {
  const cases = starts.flatMap((start) => servers.map((server) => ({ start, ...server })));
  const measured = cases.map(() => [] as Measured[]);
  for (let i = 0; i < runs; i++) for (const [at, c] of cases.entries()) measured[at]!.push(await measureOnce(c.cliPath, c.label, c.start));
  return cases.map((c, at) => {
    const of = (pick: (m: Measured) => number): number => median(measured[at]!.map(pick));
    return {
      server: c.label,
      start: c.start,
      runs,
      valueBytes: measured[at]![0]!.valueBytes,
      idleRssBytes: of((m) => m.idleRssBytes),
      peakRssBytes: of((m) => m.peakRssBytes),
    };
  });
}

/** Small calls a warm server answers before its idle memory is read. */
export const WARM_CALLS = 600;

type Measured = Pick<SpillMemoryRow, 'valueBytes' | 'idleRssBytes' | 'peakRssBytes'>;

async function measureOnce(cliPath: string | undefined, label: string, start: SpillStart): Promise<Measured> {
  const body = jiraSearchBody(16 * MiB);
  const expected = JSON.stringify({ data: JSON.parse(body.toString('utf8')) as unknown });
  const mock = await MockUpstream.start();
  serveJiraSearch(mock, jiraSearchBody(2048));
  const server = await startHttpServer({ cliPath, env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, MCP_STRUCTURED_OUTPUT: 'true', LOG_LEVEL: 'warn' } });
  try {
    const client = await connectHttp(server.url);
    // Fresh: what an operator sizes a memory limit by, the first big value a server meets (V8 grows its young
    // generation to its default size over a server's first hundreds of calls, whatever they are, and keeps it:
    // that growth counts here). Warm: a server in service, whose young generation has grown already.
    const smallCalls = start === 'fresh' ? 1 : WARM_CALLS;
    for (let i = 0; i < smallCalls; i++) await spillAndReadBack(client, undefined); // small: nothing spills
    const idleRssBytes = procStatus(server, 'VmRSS');
    serveJiraSearch(mock, body);
    await spillAndReadBack(client, expected);
    const peakRssBytes = procStatus(server, 'VmHWM');
    await client.close();
    process.stderr.write(`  spill memory, ${label}, ${start}: peak ${(peakRssBytes / MiB).toFixed(0)} MiB (idle ${(idleRssBytes / MiB).toFixed(0)} MiB)\n`);
    return { valueBytes: Buffer.byteLength(expected), idleRssBytes, peakRssBytes };
  } finally {
    await server.stop();
    await mock.close();
  }
}

/** One call and, with `expected`, its artifact read back: the bytes must be exactly the value. */
async function spillAndReadBack(client: Client, expected: string | undefined): Promise<void> {
  const result = (await client.callTool({ name: 'jira_get', arguments: { path: SEARCH_PATH, outputFormat: 'json' } }, { timeout: 600_000 })) as CallToolResult;
  if (result.isError) throw new Error(`jira_get failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  if (expected === undefined) return;
  const incomplete = (result.structuredContent as { incomplete?: { artifactId: string | null } } | undefined)?.incomplete;
  if (!incomplete?.artifactId) throw new Error(`the 16 MiB value did not spill to an artifact: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
  const pieces: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const chunk = (await client.callTool({ name: 'artifact_read', arguments: { artifactId: incomplete.artifactId, offset } })) as CallToolResult;
    const block = chunk.content[0];
    if (chunk.isError || block?.type !== 'text') throw new Error(`artifact_read failed at ${offset}: ${JSON.stringify(chunk.content).slice(0, 300)}`);
    const answer = JSON.parse(block.text) as { data: string; nextOffset: number; eof: boolean };
    pieces.push(Buffer.from(answer.data, 'base64'));
    ({ nextOffset: offset, eof } = answer);
  }
  if (!Buffer.concat(pieces).equals(Buffer.from(expected, 'utf8'))) throw new Error('the artifact read back differs from the structured value');
}

/** A /proc/<pid>/status field in bytes: VmRSS now, VmHWM the peak so far. */
function procStatus(server: HttpServerProcess, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (kb === null) throw new Error(`no ${field} in /proc/${server.process.pid}/status`);
  return Number(kb[1]) * 1024;
}
