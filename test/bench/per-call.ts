import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startReferenceServer } from '../plugins/atlassian/differential/reference-server.js';
import { connectStdio } from '../support/sdk-client.js';
import { ContractWork } from './contract-work.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, TYPICAL_JIRA_JQ, jiraSearchBody, serveJiraSearch } from './jira-bodies.js';
import { CpuSpan } from './process-cpu.js';
import { since, summarize, type Summary } from './stats.js';

export interface PerCallRow {
  bodyBytes: number;
  format: 'toon' | 'json';
  jq: boolean;
  ours: Summary;
  reference: Summary;
  /**
   * The floor as issue 18 names it: what any server of this kind must do for a call. A direct fetch of the mock
   * and JSON.parse of its text in this process, then one stdio round trip (an MCP ping of a reference server
   * process started for the floor alone), timed as one.
   */
  floor: Summary;
  /** The fetch and JSON.parse of the same samples alone: the floor without its round trip. */
  fetchAndParse: Summary;
  /**
   * JSON without a jq only: what the contract itself asks of any server on top of the floor (contract-work.ts),
   * timed in this process after every row is measured: the text, its file (0 when the text is not cut), and the
   * longer of the two in each sample (a server doing nothing else, its writing overlapped perfectly with its
   * rendering). The row's floor with that added, against the reference's median, is as near 0.5x as any server
   * keeping the contract can come on this machine (report.ts, contractLowerBound).
   */
  contract?: { render: Summary; file: Summary; longer: Summary };
  /** The baseline commit's build, interleaved with the others (only with --before). */
  before?: Summary;
  /**
   * Each server's CPU time (user + system, every thread) over the row's measured calls, divided by their number,
   * in ms: the server's own work, where the median also holds what both sides share (the mock, the client, the
   * wake-ups between processes). Absent where /proc cannot be read.
   */
  cpuMsPerCall?: { ours: number; reference: number };
}

export interface PerCallResult {
  rows: PerCallRow[];
  /** An MCP ping over the same stdio sessions: the transport and SDK cost of a call, with no tool work. */
  ping: { ours: Summary; reference: Summary };
  /** Calls each server answered before the measured ones. */
  warmUpCalls: number;
  /** The processes measured, and the one the floor's round trip goes to. */
  pids: { ours: number | undefined; reference: number | undefined; floorRoundTrip: number | undefined };
}

export interface PerCallOptions {
  sizes: number[];
  /** Calls per server and configuration, by body size. */
  iterations(bytes: number): number;
  /** dist/cli.js of the baseline commit: measured beside ours, call for call. */
  beforeCli?: string;
  /**
   * Calls each server answers before anything is measured (default 40). Both servers keep getting faster for
   * about two thousand calls (V8 compiling their hot code: CPU per call falls 3-5x); with too few, the first row
   * measured (2 KB TOON) is half warm-up, which is why it once looked 1.2 ms dearer than the others.
   */
  warmUpCalls?: number;
}

/**
 * jira_get over stdio with the official SDK client, ours against @aashari/mcp-server-atlassian-jira@3.3.0,
 * both fed the same bytes by one loopback mock. Calls alternate between the servers so that whatever else the
 * machine is doing slows both alike.
 */
export async function benchPerCall(options: PerCallOptions): Promise<PerCallResult> {
  const mock = await MockUpstream.start();
  // The reference speaks only 2025-era revisions, and 2026-07-28 has no ping: both sides negotiate 2025-11-25
  // with the same (v2) client, so the rows compare the servers and the ping row is the same exchange.
  const ours = await connectStdio({ env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, LOG_LEVEL: 'warn' }, versionNegotiation: { mode: 'legacy' } });
  const reference = await startReferenceServer('jira', mock.url, JIRA_CREDENTIALS);
  // The floor's round trip: the cheapest MCP exchange, with a server of the reference's kind. A process of its own,
  // for a measured server pinged would do that work inside its row's CPU reading and be woken just before a call.
  const roundTrip = await startReferenceServer('jira', mock.url, JIRA_CREDENTIALS);
  // Whatever page the mock serves at the time: the warm-up's, then each size's.
  const floorUrl = `${mock.url}${SEARCH_PATH}?maxResults=50`;
  const floor = (): Promise<FloorSample> => floorOnce(floorUrl, roundTrip.client);
  const contractWork = new ContractWork();
  // Read while they run: a closed process has no pid.
  const pids = { ours: ours.pid, reference: reference.pid, floorRoundTrip: roundTrip.pid };
  const before =
    options.beforeCli === undefined
      ? undefined
      : await connectStdio({ cliPath: options.beforeCli, env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, LOG_LEVEL: 'warn' } });
  const rows: PerCallRow[] = [];
  /** Each size's page and its row of JSON without a jq: what the contract's own work is timed on at the end. */
  const jsonRows = new Map<Buffer, PerCallRow>();
  const pings = { ours: [] as number[], reference: [] as number[] };
  try {
    await warmUp(mock, [ours.client, reference.client, ...(before ? [before.client] : [])], floor, options.warmUpCalls ?? 40);
    for (let i = 0; i < options.iterations(0); i++) {
      pings.ours.push(await pingOnce(ours.client));
      pings.reference.push(await pingOnce(reference.client));
    }
    for (const bytes of options.sizes) {
      const body = jiraSearchBody(bytes);
      serveJiraSearch(mock, body);
      const n = options.iterations(bytes);
      for (let i = 0; i < 3; i++) await floor();
      for (const format of ['toon', 'json'] as const) {
        for (const jq of [false, true]) {
          const args: Record<string, unknown> = { path: SEARCH_PATH, queryParams: { maxResults: '50' }, outputFormat: format };
          if (jq) args.jq = TYPICAL_JIRA_JQ;
          const samples = { ours: [] as number[], reference: [] as number[], before: [] as number[], floor: [] as number[], fetchAndParse: [] as number[] };
          for (let i = 0; i < 3; i++)
            await Promise.all([callOnce(ours.client, args), callOnce(reference.client, args), before && callOnce(before.client, args)]);
          const cpu = { ours: new CpuSpan(ours.pid), reference: new CpuSpan(reference.pid) };
          // The floor is sampled between the calls of each row, as the servers are: measured once before a size's
          // rows, it was ahead of the first rows in time, and whatever the machine did meanwhile fell on one side.
          for (let i = 0; i < n; i++) {
            const sample = await floor();
            samples.floor.push(sample.whole);
            samples.fetchAndParse.push(sample.fetchAndParse);
            samples.ours.push(await callOnce(ours.client, args));
            samples.reference.push(await callOnce(reference.client, args));
            if (before) samples.before.push(await callOnce(before.client, args));
          }
          rows.push({
            bodyBytes: body.length,
            format,
            jq,
            ours: summarize(samples.ours),
            reference: summarize(samples.reference),
            floor: summarize(samples.floor),
            fetchAndParse: summarize(samples.fetchAndParse),
            ...(before ? { before: summarize(samples.before) } : {}),
            ...cpuOfRow(cpu.ours.perCall(n), cpu.reference.perCall(n)),
          });
          if (format === 'json' && !jq) jsonRows.set(body, rows.at(-1)!);
          process.stderr.write(
            `  per-call ${body.length} B ${format}${jq ? ' +jq' : ''}: ours ${rows.at(-1)!.ours.median.toFixed(2)} ms, reference ${rows.at(-1)!.reference.median.toFixed(2)} ms\n`,
          );
        }
      }
    }
    // After every server's rows: its files dirty pages the kernel writes back while the next calls run. Timed between
    // a row's calls, right before ours, ours' 1 MiB JSON calls took 2.1x their time in the run before, the reference's 1.4x.
    for (const [body, row] of jsonRows) row.contract = await timeContractWork(mock, body, row.floor.n, floor, contractWork);
  } finally {
    await Promise.allSettled([ours.close(), reference.close(), roundTrip.close(), before?.close()]);
    contractWork.close();
    await mock.close();
  }
  return {
    rows,
    ping: { ours: summarize(pings.ours), reference: summarize(pings.reference) },
    warmUpCalls: options.warmUpCalls ?? 40,
    pids,
  };
}

/**
 * The contract's own work on one size's page (contract-work.ts), each sample on the value of a floor sample
 * taken just before it: the text, its file, and the longer of the two. Their sum is no lower bound: a server may
 * write the first pieces of a big text while it renders the rest (ours does from 512 Ki characters on, through
 * the thread pool), and the sum stood above our whole call at 1 MiB. The floor to add is the row's, taken
 * between the servers' calls: the floor samples here, back to back, were a quarter to a half of it.
 */
async function timeContractWork(
  mock: MockUpstream,
  body: Buffer,
  n: number,
  floor: () => Promise<FloorSample>,
  work: ContractWork,
): Promise<NonNullable<PerCallRow['contract']>> {
  serveJiraSearch(mock, body);
  for (let i = 0; i < 3; i++) await floor();
  const samples = { render: [] as number[], file: [] as number[], longer: [] as number[] };
  for (let i = 0; i < n; i++) {
    const sample = await floor();
    const done = work.once(sample.value);
    samples.render.push(done.render);
    samples.file.push(done.file);
    samples.longer.push(Math.max(done.render, done.file));
  }
  return { render: summarize(samples.render), file: summarize(samples.file), longer: summarize(samples.longer) };
}

/**
 * The two servers' CPU a call over a row, when both could be read. Between the readings each server answers only
 * its own calls (the floor runs in this process), so its CPU over the row is its CPU for those calls.
 */
function cpuOfRow(ours: number | undefined, reference: number | undefined): Pick<PerCallRow, 'cpuMsPerCall'> {
  return ours === undefined || reference === undefined ? {} : { cpuMsPerCall: { ours, reference } };
}

async function pingOnce(client: Client): Promise<number> {
  const started = performance.now();
  await client.ping();
  return since(started);
}

/**
 * Both servers run every configuration on a small body for a while before anything is measured, so that the
 * first row does not pay for JIT compilation, connection pools and lazy imports. The floor is taken as often:
 * its fetch and parse run in this process, and warmed by three calls only they took 0.89 ms a 2 KB page in the
 * first 300 calls and 0.59 in the fifth 300 (0.47 to 0.40 after 2,000), so the first rows' floor stood high and
 * what a server spends above it looked smaller than it was.
 */
async function warmUp(mock: MockUpstream, clients: Client[], floor: () => Promise<FloorSample>, calls: number): Promise<void> {
  serveJiraSearch(mock, jiraSearchBody(20 * 1024));
  for (let i = 0; i < calls; i++) {
    for (const client of clients) {
      await callOnce(client, { path: SEARCH_PATH, outputFormat: i % 2 === 0 ? 'toon' : 'json', ...(i % 4 < 2 ? {} : { jq: TYPICAL_JIRA_JQ }) });
    }
    await floor();
  }
}

/** Milliseconds of one tools/call, failing loudly if the server answered with an error. */
async function callOnce(client: Client, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = (await client.callTool({ name: 'jira_get', arguments: args })) as CallToolResult;
  const took = since(started);
  if (result.isError) throw new Error(`jira_get failed during the benchmark: ${JSON.stringify(result.content).slice(0, 500)}`);
  return took;
}

interface FloorSample {
  /** Milliseconds of the fetch and JSON.parse. */
  fetchAndParse: number;
  /** Milliseconds of the fetch, the parse and the round trip after them. */
  whole: number;
  /** The page parsed: what the contract's own work renders (contract-work.ts). */
  value: unknown;
}

/** The floor once: a direct fetch of the mock and JSON.parse of its text in this process, then one stdio round trip. */
async function floorOnce(url: string, roundTrip: Client): Promise<FloorSample> {
  const started = performance.now();
  const response = await fetch(url);
  const value = JSON.parse(await response.text()) as { issues: unknown[] };
  const fetchAndParse = since(started);
  await roundTrip.ping();
  const whole = since(started);
  if (value.issues.length === 0) throw new Error('the mock served no issues');
  return { fetchAndParse, whole, value };
}
