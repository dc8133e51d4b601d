import autocannon from 'autocannon';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { circleciFixture } from '../fixtures/circleci/circleci-api.js';
import { pagedListReply, workflowRuns } from '../fixtures/github/github-api.js';
import { startHttpServer } from '../support/sdk-client.js';
import { CpuSpan } from './process-cpu.js';
import { median } from './stats.js';

export interface ThroughputRow {
  tool: string;
  /** Which server: `ours`, `before` (the baseline commit's build), or `ours, 2 workers`. */
  server?: string;
  clients: number;
  /** Median of the per-second completed-call counts. */
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  calls: number;
  /** Requests the vendor mock received during the run: equal to `calls` uncached, near 0 cached. */
  upstreamRequests: number;
  /** Requests autocannon gave up on (no answer within its 10 s timeout): a server overloaded, not failing. */
  timeouts?: number;
  /**
   * CPU time (user + system) of the server's processes, workers included, per call served: the median of its
   * windows'. Measured in the interleaved runs, where /proc has it.
   */
  cpuMsPerCall?: number;
}

const PROTOCOL_VERSION = '2025-06-18';
const RUNS = workflowRuns(30);
const PIPELINE = circleciFixture('pipeline.json');

const UNCACHED_TOOL = 'github_list_workflow_runs';

/** The tools measured: each a JSON-RPC tools/call body as a client POSTs it. */
const CASES = [
  { tool: 'circleci_get', label: 'circleci_get (cached)', arguments: { path: '/project/gh/acme/app/pipeline/5034460f' } },
  { tool: 'github_list_workflow_runs', label: 'github_list_workflow_runs (uncached)', arguments: { owner: 'octo-org', repo: 'octo-repo', perPage: 30 } },
] as const;

/**
 * Calls per second over Streamable HTTP (stateless, one SDK server per POST) against the built CLI, with
 * autocannon keeping `clients` requests in flight, each on its own connection. circleci_get is answered from
 * the HTTP cache after its first call (CircleCI says max-age=300); github_list_workflow_runs reaches the mock
 * every time. The load generator shares the machine with the server, as a sidecar would.
 */
export interface ThroughputServer {
  /** Shown in the table. */
  label?: string;
  cliPath?: string;
  /** --workers (the store is then a SQLite file the workers share). */
  workers?: string;
  storeUrl?: string;
  /** Only the uncached tool. */
  uncachedOnly?: boolean;
  /** Only the cached tool (the uncached one is measured interleaved, benchThroughputInterleaved). */
  cachedOnly?: boolean;
}

/** A server under load: its URL, the upstream requests its own mock has received, and how to stop both. */
interface Running {
  url: string;
  upstream: () => number;
  /** The server's process (its workers are its children), for the CPU it uses. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The built CLI over HTTP with a vendor mock of its own (so each server's upstream requests are its own). */
async function startServer(options: ThroughputServer): Promise<Running> {
  const mock = await MockUpstream.start();
  let upstream = 0;
  // The page's JSON is made once: the load generator shares the cores with the server it measures, and
  // serializing 30 runs again for every call (about 1 ms) was CPU taken from the server. Same bytes, same headers.
  const pages = new Map<string, Buffer>();
  mock.on('GET', '/repos/:owner/:repo/actions/runs', (request) => {
    upstream++;
    mock.requests.length = 0;
    const reply = pagedListReply(request, { key: 'workflow_runs', items: RUNS, linkPath: '/repositories/1296269/actions/runs' });
    const key = request.query.toString();
    let body = pages.get(key);
    if (body === undefined) pages.set(key, (body = Buffer.from(JSON.stringify(reply.body), 'utf8')));
    return { ...reply, headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8' }, body };
  });
  mock.on('GET', '/api/v2/project/*', () => {
    upstream++;
    mock.requests.length = 0;
    return { headers: { 'cache-control': 'private, max-age=300', etag: '"pipeline-v1"' }, body: PIPELINE };
  });
  const server = await startHttpServer({
    cliPath: options.cliPath,
    args: options.workers === undefined ? [] : ['--workers', options.workers],
    env: {
      GITHUB_API_URL: mock.url,
      GITHUB_TOKEN: 'ghp_benchToken0123456789',
      CIRCLECI_BASE_URL: mock.url,
      CIRCLECI_TOKEN: 'circle-benchToken0123456789',
      LOG_LEVEL: 'warn',
      ...(options.storeUrl === undefined ? {} : { MCP_STORE_URL: options.storeUrl }),
    },
  }).catch(async (error: unknown) => {
    await mock.close();
    throw error;
  });
  return {
    url: server.url,
    upstream: () => upstream,
    pid: server.process.pid,
    stop: async () => {
      await server.stop();
      await mock.close();
    },
  };
}

const bodyOf = (c: (typeof CASES)[number]): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: c.tool, arguments: c.arguments } });

function check(result: autocannon.Result, tool: string): void {
  if (result.non2xx > 0 || result.errors > result.timeouts)
    throw new Error(`${tool}: ${result.non2xx} non-2xx answers and ${result.errors - result.timeouts} errors under load`);
}

/** One server alone: each tool at each concurrency for `seconds` after a 1 s warm-up. */
export async function benchThroughput(concurrency: number[], seconds: number, options: ThroughputServer = {}): Promise<ThroughputRow[]> {
  const server = await startServer(options);
  const rows: ThroughputRow[] = [];
  try {
    for (const c of CASES.filter((k) => (options.uncachedOnly ? k.tool === UNCACHED_TOOL : options.cachedOnly ? k.tool !== UNCACHED_TOOL : true))) {
      const body = bodyOf(c);
      await checkOneCall(server.url, body, c.tool);
      for (const clients of concurrency) {
        // Warm-up at this concurrency, then the measured run.
        await load(server.url, body, clients, 1);
        const upstreamBefore = server.upstream();
        const result = await load(server.url, body, clients, seconds);
        check(result, c.tool);
        rows.push({
          tool: c.label,
          server: options.label ?? 'ours',
          clients,
          callsPerSecond: result.requests.p50,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          calls: result.requests.total,
          upstreamRequests: server.upstream() - upstreamBefore,
          timeouts: result.timeouts,
        });
        process.stderr.write(`  throughput ${options.label ?? 'ours'} ${c.tool} x${clients}: ${result.requests.p50} calls/s, p99 ${result.latency.p99} ms\n`);
      }
    }
  } finally {
    await server.stop();
  }
  return rows;
}

export interface InterleavedServer extends ThroughputServer {
  /** The concurrencies this server is measured at. */
  clients: number[];
}

/**
 * The uncached tool on several servers (ours, the baseline build, each --workers setting), all started at
 * once and loaded in turn, `windowSeconds` each, for `rounds` rounds, the order rotated every round: what
 * else the machine does in those minutes slows every server alike, so their ratios are measured side by
 * side. A server's calls/s is the median of its windows' rates; p50 and p99 the medians of its windows'.
 */
export async function benchThroughputInterleaved(servers: InterleavedServer[], windowSeconds: number, rounds: number): Promise<ThroughputRow[]> {
  const c = CASES.find((k) => k.tool === UNCACHED_TOOL)!;
  const body = bodyOf(c);
  const running: Running[] = [];
  const rows: ThroughputRow[] = [];
  try {
    for (const server of servers) running.push(await startServer(server));
    for (const r of running) await checkOneCall(r.url, body, c.tool);
    for (const clients of [...new Set(servers.flatMap((s) => s.clients))].sort((a, b) => a - b)) {
      const measured = servers.map((s, i) => ({ server: s, run: running[i]! })).filter(({ server }) => server.clients.includes(clients));
      for (const { run } of measured) await load(run.url, body, clients, 1);
      const windows = measured.map(() => [] as autocannon.Result[]);
      const cpuPerCall = measured.map(() => [] as number[]);
      const upstream = measured.map(({ run }) => run.upstream());
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < measured.length; k++) {
          const at = (k + round) % measured.length;
          const cpu = new CpuSpan(measured[at]!.run.pid);
          const result = await load(measured[at]!.run.url, body, clients, windowSeconds);
          const perCall = cpu.perCall(result.requests.total);
          check(result, c.tool);
          windows[at]!.push(result);
          if (perCall !== undefined) cpuPerCall[at]!.push(perCall);
        }
      }
      measured.forEach(({ server, run }, i) => {
        const results = windows[i]!;
        const label = server.label ?? 'ours';
        rows.push({
          tool: c.label,
          server: label,
          clients,
          callsPerSecond: median(results.map((w) => w.requests.total / w.duration)),
          p50Ms: median(results.map((w) => w.latency.p50)),
          p99Ms: median(results.map((w) => w.latency.p99)),
          calls: results.reduce((n, w) => n + w.requests.total, 0),
          upstreamRequests: run.upstream() - upstream[i]!,
          timeouts: results.reduce((n, w) => n + w.timeouts, 0),
          ...(cpuPerCall[i]!.length === 0 ? {} : { cpuMsPerCall: median(cpuPerCall[i]!) }),
        });
        const cpu = rows.at(-1)!.cpuMsPerCall;
        process.stderr.write(
          `  throughput ${label} ${c.tool} x${clients}: ${rows.at(-1)!.callsPerSecond.toFixed(1)} calls/s${cpu === undefined ? '' : `, ${cpu.toFixed(2)} ms of server CPU a call`} (median of ${rounds} windows)\n`,
        );
      });
    }
  } finally {
    await Promise.allSettled(running.map((r) => r.stop()));
  }
  return rows;
}

function load(url: string, body: string, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    method: 'POST',
    connections,
    pipelining: 1,
    duration: seconds,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION },
    body,
  });
}

/** The body autocannon will send gets a successful tool result (not an HTTP 200 carrying an error). */
async function checkOneCall(url: string, body: string, tool: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION },
    body,
  });
  const answer = (await response.json()) as { result?: { isError?: boolean; content?: Array<{ text?: string }> }; error?: unknown };
  if (response.status !== 200 || answer.result === undefined || answer.result.isError) {
    throw new Error(`${tool} does not answer over HTTP: ${response.status} ${JSON.stringify(answer).slice(0, 500)}`);
  }
}
