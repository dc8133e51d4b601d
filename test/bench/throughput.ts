import autocannon from 'autocannon';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { pagedListReply, workflowRuns } from '../fixtures/github/github-api.js';
import { startHttpServer } from '../support/sdk-client.js';
import { median } from './stats.js';

export interface ThroughputRow {
  /** Which server: `ours`, `before` (the baseline build), `ours, --workers 2`. */
  server: string;
  clients: number;
  /** The median of the server's windows' calls a second. */
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  calls: number;
}

export interface ThroughputServer {
  label: string;
  cliPath?: string;
  /** --workers (the store is then a SQLite file the workers share). */
  workers?: string;
  storeUrl?: string;
}

const PROTOCOL_VERSION = '2025-06-18';
const RUNS = workflowRuns(30);
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'github_list_workflow_runs', arguments: { owner: 'octo-org', repo: 'octo-repo', perPage: 30 } },
});
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION };

/** A server under load, with a vendor mock of its own, and how to stop both. */
interface Running {
  url: string;
  stop(): Promise<void>;
}

async function startServer(options: ThroughputServer): Promise<Running> {
  const mock = await MockUpstream.start();
  // The page's JSON is made once: the load generator shares the cores with the server it measures.
  const pages = new Map<string, Buffer>();
  mock.on('GET', '/repos/:owner/:repo/actions/runs', (request) => {
    mock.requests.length = 0;
    const reply = pagedListReply(request, { key: 'workflow_runs', items: RUNS, linkPath: '/repositories/1296269/actions/runs' });
    const key = request.query.toString();
    let body = pages.get(key);
    if (body === undefined) pages.set(key, (body = Buffer.from(JSON.stringify(reply.body), 'utf8')));
    return { ...reply, headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8' }, body };
  });
  const server = await startHttpServer({
    cliPath: options.cliPath,
    args: options.workers === undefined ? [] : ['--workers', options.workers],
    env: {
      GITHUB_API_URL: mock.url,
      GITHUB_TOKEN: 'ghp_benchToken0123456789',
      LOG_LEVEL: 'warn',
      ...(options.storeUrl === undefined ? {} : { MCP_STORE_URL: options.storeUrl }),
    },
  }).catch(async (error: unknown) => {
    await mock.close();
    throw error;
  });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      await mock.close();
    },
  };
}

/**
 * The uncached github_list_workflow_runs (it reaches the mock every call) over Streamable HTTP, autocannon
 * keeping `clients` requests in flight. The servers all run at once and are loaded in turn, `windowSeconds`
 * each, for `rounds` rounds, the order rotated every round, after a 1 s warm-up each: whatever else the machine
 * does slows every server alike. A server's calls/s is the median of its windows'; p50 and p99 likewise.
 */
export async function benchThroughput(servers: ThroughputServer[], clients: number, windowSeconds: number, rounds: number): Promise<ThroughputRow[]> {
  const running: Running[] = [];
  try {
    for (const server of servers) running.push(await startServer(server));
    for (const r of running) await checkOneCall(r.url);
    for (const r of running) await load(r.url, clients, 1);
    const windows = running.map(() => [] as autocannon.Result[]);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < running.length; k++) {
        const at = (k + round) % running.length;
        const result = await load(running[at]!.url, clients, windowSeconds);
        if (result.non2xx > 0 || result.errors > result.timeouts)
          throw new Error(`${servers[at]!.label}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
        windows[at]!.push(result);
      }
    }
    return servers.map((server, i) => {
      const results = windows[i]!;
      const row = {
        server: server.label,
        clients,
        callsPerSecond: median(results.map((w) => w.requests.total / w.duration)),
        p50Ms: median(results.map((w) => w.latency.p50)),
        p99Ms: median(results.map((w) => w.latency.p99)),
        calls: results.reduce((n, w) => n + w.requests.total, 0),
      };
      process.stderr.write(`  throughput ${row.server} x${clients}: ${row.callsPerSecond.toFixed(1)} calls/s (median of ${rounds} windows)\n`);
      return row;
    });
  } finally {
    await Promise.allSettled(running.map((r) => r.stop()));
  }
}

function load(url: string, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, method: 'POST', connections, pipelining: 1, duration: seconds, headers: HEADERS, body: BODY });
}

/** The body autocannon will send gets a successful tool result (not an HTTP 200 carrying an error). */
async function checkOneCall(url: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body: BODY });
  const answer = (await response.json()) as { result?: { isError?: boolean } };
  if (response.status !== 200 || answer.result === undefined || answer.result.isError) {
    throw new Error(`github_list_workflow_runs does not answer over HTTP: ${response.status} ${JSON.stringify(answer).slice(0, 500)}`);
  }
}
