import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, jiraSearchBody, serveJiraSearch } from './jira-bodies.js';
import { median, MiB } from './stats.js';

export interface SpillMemoryRow {
  clients: number;
  /** `ours`, or `before`: the baseline commit's build. */
  server?: string;
  /** Fresh servers measured; the figures are their medians. */
  runs: number;
  /** The lowest and highest peak of those runs. */
  peakRange: [number, number];
  /** Runs in which the server died, and the last thing it said (a V8 heap limit, typically). */
  died: number;
  deathNote?: string;
  /** The serialized structured value each client's call produced (what went to the artifact). */
  valueBytes: number;
  /** Resident set of the server after start-up and one small call. */
  idleRssBytes: number;
  /** The kernel's high-water mark (VmHWM) once every client read its artifact back. */
  peakRssBytes: number;
  seconds: number;
}

/**
 * Peak resident memory of the server (built CLI, Streamable HTTP, memory store) while `clients` clients at once
 * each call jira_get on a 16 MiB Jira search page with structured output on: the value spills to an artifact,
 * which each client then reads back whole with artifact_read and checks byte for byte. One fresh server per
 * measurement, so the high-water mark is this scenario's alone.
 */
export async function benchSpillMemory(clientCounts: number[], runs: (clients: number) => number, cliPath?: string, label = 'ours'): Promise<SpillMemoryRow[]> {
  const rows: SpillMemoryRow[] = [];
  for (const clients of clientCounts) {
    const measured: Measured[] = [];
    for (let i = 0; i < runs(clients); i++) measured.push(await measureOnce(clients, cliPath));
    const peaks = measured.map((m) => m.peakRssBytes);
    const deaths = measured.filter((m) => m.deathNote !== undefined);
    rows.push({
      clients,
      server: label,
      runs: measured.length,
      died: deaths.length,
      deathNote: deaths[0]?.deathNote,
      peakRange: [Math.min(...peaks), Math.max(...peaks)],
      valueBytes: measured[0]!.valueBytes,
      idleRssBytes: median(measured.map((m) => m.idleRssBytes)),
      peakRssBytes: median(peaks),
      seconds: median(measured.map((m) => m.seconds)),
    });
  }
  return rows;
}

type Measured = Omit<SpillMemoryRow, 'clients' | 'runs' | 'peakRange' | 'died'>;

/** One fresh server, `clients` clients spilling and reading back at once. */
async function measureOnce(clients: number, cliPath: string | undefined): Promise<Measured> {
  const body = jiraSearchBody(16 * MiB);
  const expected = JSON.stringify({ data: JSON.parse(body.toString('utf8')) as unknown });
  const mock = await MockUpstream.start();
  serveJiraSearch(mock, jiraSearchBody(2048));
  const server = await startHttpServer({ cliPath, env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, MCP_STRUCTURED_OUTPUT: 'true', LOG_LEVEL: 'warn' } });
  try {
    const sessions = await Promise.all(Array.from({ length: clients }, () => retried(() => connectHttp(server.url))));
    await spillAndReadBack(sessions[0]!, undefined); // small: nothing spills; warms the server up
    const idleRssBytes = procStatus(server, 'VmRSS') ?? 0;
    // Sampled as it goes, so that the high-water mark is known even if the server dies on the way.
    let peakRssBytes = 0;
    const sample = (): void => void (peakRssBytes = Math.max(peakRssBytes, procStatus(server, 'VmHWM') ?? 0));
    const sampler = setInterval(sample, 100);
    serveJiraSearch(mock, body);
    const started = performance.now();
    const outcome = await Promise.allSettled(sessions.map((client) => spillAndReadBack(client, expected)));
    const seconds = (performance.now() - started) / 1000;
    sample();
    clearInterval(sampler);
    const failed = outcome.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    let deathNote: string | undefined;
    if (failed !== undefined) {
      if (server.process.exitCode === null && server.process.signalCode === null) throw failed.reason;
      deathNote = (server.stderr.find((line) => line.includes('FATAL ERROR')) ?? `exit ${server.process.exitCode ?? server.process.signalCode}`).trim();
    }
    process.stderr.write(
      `  spill memory x${clients}: peak ${(peakRssBytes / MiB).toFixed(0)} MiB (idle ${(idleRssBytes / MiB).toFixed(0)} MiB)${deathNote ? `; the server died: ${deathNote}` : ''}\n`,
    );
    await Promise.allSettled(sessions.map((c) => c.close()));
    return { valueBytes: Buffer.byteLength(expected), idleRssBytes, peakRssBytes, seconds, deathNote };
  } finally {
    await server.stop();
    await mock.close();
  }
}

/** One spilling call and the artifact read back; with `expected`, the bytes must be exactly the value. */
async function spillAndReadBack(client: Client, expected: string | undefined): Promise<void> {
  const result = (await retried(() =>
    client.callTool({ name: 'jira_get', arguments: { path: SEARCH_PATH, outputFormat: 'json' } }, { timeout: 600_000 }),
  )) as CallToolResult;
  if (result.isError) throw new Error(`jira_get failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  const incomplete = (result.structuredContent as { incomplete?: { artifactId: string | null } } | undefined)?.incomplete;
  if (expected === undefined) return;
  if (!incomplete?.artifactId) throw new Error(`the 16 MiB value did not spill to an artifact: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
  const pieces: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const chunk = (await retried(() => client.callTool({ name: 'artifact_read', arguments: { artifactId: incomplete.artifactId, offset } }))) as CallToolResult;
    const block = chunk.content[0];
    if (chunk.isError || block?.type !== 'text') throw new Error(`artifact_read failed at ${offset}: ${JSON.stringify(chunk.content).slice(0, 300)}`);
    const answer = JSON.parse(block.text) as { data: string; nextOffset: number; eof: boolean };
    pieces.push(Buffer.from(answer.data, 'base64'));
    ({ nextOffset: offset, eof } = answer);
  }
  if (!Buffer.concat(pieces).equals(Buffer.from(expected, 'utf8'))) throw new Error('the artifact read back differs from the structured value');
}

/**
 * A request again when its keep-alive connection was closed under it. With 64 clients and a server busy for
 * seconds at a time, a client now and then sends on a connection the server's keep-alive timer is closing:
 * the request never reached the server, and the client, not the server, is what this measures around.
 */
async function retried<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      if (attempt >= 3 || !(error instanceof TypeError) || !['UND_ERR_SOCKET', 'ECONNRESET'].includes(cause?.code ?? '')) throw error;
    }
  }
}

/** A /proc/<pid>/status field in bytes (VmRSS now, VmHWM the peak so far); undefined once the process is gone. */
function procStatus(server: HttpServerProcess, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return kb ? Number(kb[1]) * 1024 : undefined;
}
