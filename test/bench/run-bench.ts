/**
 * `npm run bench` (`-- --quick` for a CI-sized run): every benchmark, then docs/benchmarks.md (a quick run
 * writes build/bench/benchmarks.md instead, so the committed figures always come from a full run).
 * Needs `npm run build` (the servers are measured as shipped) and node --expose-gc (the store footprint).
 */
// The kernel's DI needs the decorator metadata polyfill before any plugin module loads.
import 'reflect-metadata';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.js';
import { redisServerAvailable, startRedisServer } from '../support/redis.js';
import { describeMachine } from './machine.js';
import { BENCH_NOTES } from './notes.js';
import { benchPerCall } from './per-call.js';
import { benchPolicy } from './policy-decision.js';
import { renderReport, type BenchResults } from './report.js';
import { benchSpillMemory } from './spill-memory.js';
import { benchStages } from './stage-breakdown.js';
import { benchStartup } from './startup.js';
import { MiB } from './stats.js';
import { benchStoreFootprint } from './store-footprint.js';
import { benchThroughput, benchThroughputInterleaved } from './throughput.js';
import { benchTokens } from './token-counts.js';
import { measureToolsList } from './tools-list-tokens.js';

const quick = process.argv.includes('--quick');
// Every server, reference install and store the run starts gets its temporary directories below one of the
// run's own, removed at the end: the servers' working directories keep the whole text of every cut call, more
// than a gigabyte a server in a full run, and they filled the disk when left behind.
const scratch = mkdtempSync(join(tmpdir(), 'mcp-devtools-bench-run-'));
process.env.TMPDIR = scratch;
/**
 * `--before DIR`: a checkout of the baseline commit with its own `dist/` built (see docs/benchmarks.md), measured
 * beside this one in the same run: the before/after rows.
 */
const beforeAt = process.argv.indexOf('--before');
const beforeCli = beforeAt === -1 ? undefined : join(process.argv[beforeAt + 1]!, 'dist/cli.js');
const beforeCommit = beforeCli === undefined ? undefined : readFileSync(join(process.argv[beforeAt + 1]!, '.bench-commit'), 'utf8').trim();
const SIZES = [2 * 1024, 100 * 1024, MiB, 5 * MiB];

/** How many calls per configuration: enough for a stable median, within the 20 minutes of a full run. */
const PLAN = quick
  ? {
      calls: (b: number) => (b < 50_000 ? 30 : b < 2 * MiB ? 8 : 4),
      warmUpCalls: 300,
      stageCalls: 10,
      startups: 5,
      seconds: 3,
      throughputWindow: 2,
      throughputRounds: 3,
      spillClients: [1, 8],
      spillRuns: () => 3,
      workerClients: [16],
    }
  : {
      calls: (b: number) => (b < 50_000 ? 300 : b < 500_000 ? 80 : b < 2 * MiB ? 25 : 12),
      warmUpCalls: 2000,
      stageCalls: 60,
      startups: 21,
      seconds: 10,
      throughputWindow: 2,
      throughputRounds: 6,
      spillClients: [1, 16, 64],
      spillRuns: (clients: number) => (clients === 1 ? 5 : clients === 16 ? 3 : 2),
      workerClients: [16, 64],
    };

const startedAt = performance.now();
const log = (what: string): void => void process.stderr.write(`[bench ${((performance.now() - startedAt) / 1000).toFixed(0)}s] ${what}\n`);
const machine = describeMachine();

log('tokens');
const tokens = benchTokens();
log('tools/list tokens');
const toolsList = [await measureToolsList(false), await measureToolsList(true)];
log('policy decisions');
const policy = benchPolicy(500);
log('store footprint');
let footprintNote: string | undefined;
const redis = redisServerAvailable() ? await startRedisServer() : undefined;
if (redis === undefined) footprintNote = 'Redis was not measured: no redis-server on this machine (apt-get install redis-server).';
const footprint = await benchStoreFootprint(redis?.url);
await redis?.stop();
log('start-up');
const startup = await benchStartup(PLAN.startups);
log('per-call, ours and the reference');
const perCall = await benchPerCall({ sizes: SIZES, iterations: PLAN.calls, warmUpCalls: PLAN.warmUpCalls, beforeCli });
log('throughput, the cached tool');
const throughput = await benchThroughput([1, 16, 64], PLAN.seconds, { cachedOnly: true });
log('throughput of the uncached tool, servers interleaved');
const workerStore = mkdtempSync(join(tmpdir(), 'mcp-bench-workers-'));
const cores = availableParallelism();
throughput.push(
  ...(await benchThroughputInterleaved(
    [
      { label: 'ours', clients: [1, 16, 64] },
      ...(beforeCli === undefined ? [] : [{ label: 'before', cliPath: beforeCli, clients: PLAN.workerClients }]),
      ...['1', '2', 'auto'].map((workers) => ({
        label: `ours, --workers ${workers}${workers === 'auto' ? ` (${cores})` : ''}, SQLite store`,
        workers,
        storeUrl: `sqlite://${join(workerStore, `w-${workers}.db`)}`,
        clients: PLAN.workerClients,
      })),
    ],
    PLAN.throughputWindow,
    PLAN.throughputRounds,
  )),
);
log('spill memory');
const spill = await benchSpillMemory(PLAN.spillClients, PLAN.spillRuns);
if (beforeCli !== undefined) spill.push(...(await benchSpillMemory([1], PLAN.spillRuns, beforeCli, 'before')));
// Last: it runs the kernel in this process, which also serves the mocks and measures the floor. Run before the
// per-call rows, it left this process slower for them (the 5 MiB floor 68 -> 100 ms; ours 80 -> 124 ms for JSON
// with a jq, the reference 227 -> 273), and the fastest server lost the most of its ratio to that.
log('stage breakdown');
const stages = await benchStages(SIZES, PLAN.stageCalls);

const results: BenchResults = {
  mode: quick ? 'quick' : 'full',
  command: quick ? 'npm run bench -- --quick' : 'npm run bench',
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  minutes: (performance.now() - startedAt) / 60_000,
  machine,
  loadAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
  perCall,
  stages,
  throughput,
  throughputSeconds: PLAN.seconds,
  throughputWindows: { seconds: PLAN.throughputWindow, rounds: PLAN.throughputRounds },
  cores,
  beforeCommit,
  spill,
  footprint,
  footprintNote,
  policy,
  startup,
  tokens,
  toolsList,
  toonLatest: (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/toon-latest/package.json'), 'utf8')) as { version: string }).version,
};
const out = quick ? join(REPO_ROOT, 'build/bench') : join(REPO_ROOT, 'docs');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'benchmarks.md'), renderReport(results, BENCH_NOTES));
mkdirSync(join(REPO_ROOT, 'build/bench'), { recursive: true });
writeFileSync(join(REPO_ROOT, 'build/bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
log(`wrote ${join(out, 'benchmarks.md')}`);
rmSync(scratch, { recursive: true, force: true });
// Child servers and sockets are closed; a lingering keep-alive timer must not hold the run open.
process.exit(0);
