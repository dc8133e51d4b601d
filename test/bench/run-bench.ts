/**
 * `npm run bench [-- --quick] [-- --before DIR] [-- --only PART,...]`: issue 40's budgets measured in one run,
 * ours against the baseline build in DIR, then docs/benchmarks.md (a quick run, or one of only some parts, writes
 * build/bench/benchmarks.md instead, so the committed figures always come from a full run). It reports: it exits
 * non-zero only when a part could not run. PART is one of ONLY_PARTS (`--only per-call,spill`).
 */
// The kernel's DI needs the decorator metadata polyfill before any plugin module loads.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.js';
import { describeMachine, loadNow } from './machine.js';
import { benchCodeMode } from './code-mode.js';
import { benchMechanisms } from './mechanism-gains.js';
import { MECHANISMS } from './mechanisms.js';
import { benchPerCall } from './per-call.js';
import { renderReport } from './report.js';
import type { BenchPlan, BenchResults, Outcome } from './results.js';
import { benchSpillMemory, WARM_CALLS } from './spill-memory.js';
import { bundleSdkFloor } from './sdk-floor.js';
import { benchStartup } from './startup.js';
import { MiB } from './stats.js';
import { failuresOf } from './targets.js';
import { benchThroughput, type ThroughputServer } from './throughput.js';
import { benchToolsList, TOOLS_LIST_CONFIGURATIONS } from './tools-list-tokens.js';

const quick = process.argv.includes('--quick');
const beforeAt = process.argv.indexOf('--before');
const beforeDir = beforeAt === -1 ? undefined : process.argv[beforeAt + 1];
const beforeCli = beforeDir === undefined ? undefined : join(beforeDir, 'dist/cli.js');
if (beforeAt !== -1 && (beforeDir === undefined || !existsSync(beforeCli!) || !existsSync(join(beforeDir, '.bench-commit')))) {
  process.stderr.write('--before DIR: DIR must be a checkout of the baseline commit with dist/ built and a .bench-commit file naming the commit\n');
  process.exit(2);
}
const ONLY_PARTS = ['start-up', 'tools-list', 'per-call', 'spill', 'throughput', 'code-mode', 'mechanisms'] as const;
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : (process.argv[onlyAt + 1] ?? '').split(',');
if (only !== undefined && (only.length === 0 || only.some((p) => !(ONLY_PARTS as readonly string[]).includes(p)))) {
  process.stderr.write(`--only PART,...: each PART one of ${ONLY_PARTS.join(', ')}\n`);
  process.exit(2);
}
const NOT_CHOSEN = 'not run: not named by --only';
const beforeCommit = beforeDir === undefined ? undefined : readFileSync(join(beforeDir, '.bench-commit'), 'utf8').trim();

const SIZES = [2 * 1024, 100 * 1024, MiB, 5 * MiB];
/** How many samples: enough for a stable median in a full run, a few minutes for a quick one. */
const calls = quick ? (b: number) => (b < 50_000 ? 30 : b < 2 * MiB ? 8 : 4) : (b: number) => (b < 50_000 ? 300 : b < 500_000 ? 80 : b < 2 * MiB ? 25 : 12);
const mechanismRuns = quick
  ? (b: number) => (b < 50_000 ? 200 : b < 500_000 ? 30 : 6)
  : (b: number) => (b < 50_000 ? 2000 : b < 500_000 ? 200 : b < 2 * MiB ? 40 : 15);
const plan: BenchPlan = {
  startups: quick ? 5 : 21,
  warmUpCalls: quick ? 300 : 2000,
  callsBySize: SIZES.map((bytes) => [bytes, calls(bytes)]),
  spillRuns: quick ? 1 : 5,
  spillWarmCalls: WARM_CALLS,
  throughput: { clients: 16, windowSeconds: 2, rounds: quick ? 3 : 6 },
};

// Every server and mock folder the run makes lives below one of its own, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'mcp-devtools-bench-run-'));
process.env.TMPDIR = scratch;
const startedAt = performance.now();
const log = (what: string): void => void process.stderr.write(`[bench ${((performance.now() - startedAt) / 1000).toFixed(0)}s] ${what}\n`);

/** A part of the run: its figures, or what stopped it (logged, and the run goes on to the next part). */
async function part<T>(name: string, measure: () => Promise<T> | T, of?: (typeof ONLY_PARTS)[number]): Promise<Outcome<T>> {
  if (only !== undefined && of !== undefined && !only.includes(of)) return { ok: false, error: NOT_CHOSEN };
  log(name);
  try {
    return { ok: true, value: await measure() };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? String(error);
    log(`${name} could not run: ${message}`);
    return { ok: false, error: message };
  }
}

const machine = describeMachine();
const node24 = await part(
  'Node 24',
  () => execFileSync(join(REPO_ROOT, '.ci/install-node'), ['24'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim(),
  'start-up',
);
// The bare SDK server, bundled as ours is: the start-up floor beside ours and the baseline's.
const sdkFloor = await part('the bare SDK server', () => bundleSdkFloor(join(scratch, 'sdk-floor')), 'start-up');
const floorCli = sdkFloor.ok ? sdkFloor.value : undefined;
const startup = [
  {
    runtime: "the machine's Node",
    budget: 1.3,
    outcome: await part("start-up, the machine's Node", () => benchStartup(process.execPath, plan.startups, beforeCli, floorCli), 'start-up'),
  },
  {
    runtime: 'Node 24',
    budget: 1.0,
    outcome: node24.ok ? await part('start-up, Node 24', () => benchStartup(node24.value, plan.startups, beforeCli, floorCli), 'start-up') : node24,
  },
];
const toolsList = await part('tools/list tokens', () => benchToolsList(TOOLS_LIST_CONFIGURATIONS), 'tools-list');
const perCall = await part('jira_get per call', () => benchPerCall({ sizes: SIZES, iterations: calls, warmUpCalls: plan.warmUpCalls, beforeCli }), 'per-call');
const spill = await part(
  'spill memory',
  () => benchSpillMemory([{ label: 'ours' }, ...(beforeCli ? [{ label: 'before', cliPath: beforeCli }] : [])], plan.spillRuns),
  'spill',
);
const throughputServers: ThroughputServer[] = [
  { label: 'ours' },
  ...(beforeCli ? [{ label: 'before', cliPath: beforeCli }] : []),
  { label: 'ours, --workers 2, SQLite store', workers: '2', storeUrl: `sqlite://${join(scratch, 'workers.db')}` },
];
const throughput = await part(
  'throughput',
  () => benchThroughput(throughputServers, plan.throughput.clients, plan.throughput.windowSeconds, plan.throughput.rounds),
  'throughput',
);
// Six tasks both ways (the example package measures them), execute against the direct call, the sandbox's start-up.
const codeMode = await part(
  'code mode',
  () => benchCodeMode({ calls: quick ? 50 : 200, programs: quick ? 50 : 200, tokensFile: join(scratch, 'code-mode-tokens.json') }),
  'code-mode',
);
// Last: it works in this process, which also runs the mocks and clients the servers' figures go through.
const mechanisms = await part(
  'mechanisms',
  () => ({
    measured: MECHANISMS.map(({ name, fast, plain }) => ({ name, fast, plain })),
    rows: benchMechanisms(MECHANISMS, SIZES, mechanismRuns),
  }),
  'mechanisms',
);

const flags = [
  ...(quick ? ['--quick'] : []),
  ...(beforeDir === undefined ? [] : ['--before DIR']),
  ...(only === undefined ? [] : [`--only ${only.join(',')}`]),
];
const results: BenchResults = {
  mode: quick ? 'quick' : 'full',
  command: flags.length === 0 ? 'npm run bench' : `npm run bench -- ${flags.join(' ')}`,
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  minutes: (performance.now() - startedAt) / 60_000,
  machine,
  loadAtEnd: loadNow(),
  plan,
  ...(beforeCommit === undefined ? {} : { beforeCommit }),
  startup,
  perCall,
  spill,
  mechanisms,
  toolsList,
  throughput,
  codeMode,
};
const out = join(REPO_ROOT, quick || only !== undefined ? 'build/bench' : 'docs');
mkdirSync(join(REPO_ROOT, 'build/bench'), { recursive: true });
writeFileSync(join(out, 'benchmarks.md'), renderReport(results));
writeFileSync(join(REPO_ROOT, 'build/bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
log(`wrote ${join(out, 'benchmarks.md')}`);
rmSync(scratch, { recursive: true, force: true });
const failures = failuresOf(results).filter((failure) => !failure.endsWith(NOT_CHOSEN));
for (const failure of failures) log(`could not run: ${failure}`);
// Child servers and sockets are closed; a lingering keep-alive timer must not hold the run open.
process.exit(failures.length === 0 ? 0 : 1);
