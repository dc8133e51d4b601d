import { CODE_MODE_HEADING, codeModeSection } from './code-mode-report.js';
import { gainOf, MECHANISM_MIN_GAIN } from './mechanism-gains.js';
import type { BenchResults, Outcome } from './results.js';
import { bytesCell, fmt, ratio, spread, type Summary } from './stats.js';
import { PER_CALL_BUDGET, perCallRatio, spillMultiple, targetsOf, timesCell, type TargetRow } from './targets.js';
import { TYPICAL_JIRA_JQ } from './jira-bodies.js';

/** The commit the run of record measures against: main before issue 40. */
export const BASELINE_COMMIT = '59d3ba4';

const table = (head: string[], rows: string[][]): string =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const ms = (v: number): string => `${fmt(v)} ms`;
const verdict = (met: boolean | undefined): string => (met === undefined ? 'not measured' : met ? 'met' : '**missed**');
/** A part's table, or the reason it could not run in its place. */
const orWhy = <T>(o: Outcome<T>, render: (value: T) => string): string => (o.ok ? render(o.value) : `Not measured: ${o.error}`);

function targets(rows: TargetRow[]): string {
  return table(
    ['target', 'budget', 'this run', ''],
    rows.map((t) => [t.target, t.budget, t.figure, verdict(t.met)]),
  );
}

function method(r: BenchResults): string {
  const p = r.plan;
  const calls = p.callsBySize.map(([bytes, n]) => `${n} at ${bytesCell(bytes)}`).join(', ');
  return `Everything is measured in one run: ours (this checkout's \`dist/\`) and before (the baseline checkout's \`dist/\`, given with \`--before\`) run side by side and take turns, start by start, call by call, window by window, the order swapped each round, so that whatever else the machine does slows both alike; every budget is a ratio of figures from that run, and the bench reports rather than fails. Start-up is the time from spawning \`dist/cli.js\` to the answer of its first \`tools/list\` (initialize, then tools/list, over stdio with the official SDK client), the median of ${p.startups} warm starts per server, the servers run by the machine's Node and then by Node 24 (the registry's binary package, \`.ci/install-node 24\`); warm means each server's first start, not counted, has filled its caches: ours Node's compile cache, which the server enables from Node 22.1 on, the baseline its own code cache. Beside them starts the floor: the SDK alone (test/bench/sdk-floor/: the SDK's low-level Server over its stdio entry with one tool, bundled into one file as ours is, the compile cache enabled the same way), which no server made with this SDK starts under. jira_get is timed over stdio with the official SDK client on real-shaped Jira search pages served by one loopback mock, the same bytes to every server, in TOON and JSON, with and without the typical jq (\`${TYPICAL_JIRA_JQ}\`); each server first answers ${p.warmUpCalls} calls, then each row takes the median of its calls (${calls}); the reference server, @aashari/mcp-server-atlassian-jira@3.3.0, is timed alongside for context. Memory is a fresh server over Streamable HTTP with structured output on, one 16 MiB page whose value spills to an artifact and is read back whole and checked: the kernel's high-water mark (VmHWM) less the resident set before the page, measured twice: fresh, once the server has answered one small call (how an operator sizes a memory limit: the first big value a server meets, V8's young generation growing to its default size on it), and warm, once it has answered ${p.spillWarmCalls} (V8 grows its young generation over a server's first hundreds of calls, whatever they are, and keeps it), ${p.spillRuns === 1 ? 'one server' : `the median of ${p.spillRuns} servers`} each. Mechanisms are timed in the bench's own process, the product's way and the plain way alternating on the same page, after a warm-up. Tokens are the \`result\` of \`tools/list\` as sent, counted with o200k_base, structured output off. Throughput is the uncached github_list_workflow_runs over Streamable HTTP, ${p.throughput.clients} clients kept busy by autocannon, ${p.throughput.rounds} rounds of ${p.throughput.windowSeconds} s windows per server.`;
}

function startup(r: BenchResults): string {
  const rows = r.startup.map((s) => {
    if (!s.outcome.ok) return [s.runtime, `not measured: ${s.outcome.error}`, '', '', '', '', `<= ${timesCell(s.budget)}`, verdict(undefined)];
    const { node, ours, before, sdkFloor, oursCacheFiles } = s.outcome.value;
    const met = before === undefined ? undefined : ours.median <= s.budget * before.median;
    const overFloor = (x: Summary | undefined): string => (x && sdkFloor ? ratio(x.median, sdkFloor.median) : 'n/a');
    return [
      `${s.runtime} (${node}; ours' compile cache: ${oursCacheFiles} files)`,
      `${ms(ours.median)} (IQR ${spread(ours)})`,
      before ? `${ms(before.median)} (IQR ${spread(before)})` : 'n/a',
      sdkFloor ? `${ms(sdkFloor.median)} (IQR ${spread(sdkFloor)}); ours ${overFloor(ours)}, before ${overFloor(before)}` : 'n/a',
      before ? ratio(ours.median, before.median) : 'n/a',
      `<= ${timesCell(s.budget)}`,
      verdict(met),
    ];
  });
  return table(['runtime', 'ours', 'before', 'the SDK alone (floor)', 'ours / before', 'budget', ''], rows);
}

function perCall(r: BenchResults): string {
  return orWhy(r.perCall, ({ rows }) =>
    table(
      ['page', 'format', 'jq', 'ours', 'before', 'ours / before', `<= ${PER_CALL_BUDGET}x`, 'reference (context)'],
      rows.map((row) => {
        const { ours, before, reference } = row.times;
        const ratioOf = perCallRatio(row);
        return [
          bytesCell(row.bodyBytes),
          row.format,
          row.jq ? 'yes' : 'no',
          ms(ours.median),
          before ? ms(before.median) : 'n/a',
          ratioOf === undefined ? 'n/a' : `${fmt(ratioOf)}x`,
          verdict(ratioOf === undefined ? undefined : ratioOf <= PER_CALL_BUDGET),
          reference ? `${ms(reference.median)} (ours ${ratio(ours.median, reference.median)})` : 'n/a',
        ];
      }),
    ),
  );
}

function memory(r: BenchResults): string {
  return orWhy(r.spill, (rows) =>
    table(
      ['server', 'start', 'value', 'idle RSS', 'peak RSS', 'peak - idle', 'over idle / value'],
      rows.map((s) => [
        s.server,
        s.start === 'fresh' ? 'fresh: one small call' : `warm: ${r.plan.spillWarmCalls} small calls`,
        bytesCell(s.valueBytes),
        bytesCell(s.idleRssBytes),
        bytesCell(s.peakRssBytes),
        bytesCell(s.peakRssBytes - s.idleRssBytes),
        `${fmt(spillMultiple(s))}x`,
      ]),
    ),
  );
}

function tokens(r: BenchResults): string {
  return orWhy(r.toolsList, (rows) =>
    table(
      ['configuration', 'flags', 'tools', 'o200k tokens', 'budget', ''],
      rows.map((row) => {
        const flags = row.args.length === 0 ? 'none' : `\`${row.args.join(' ')}\``;
        const budget = row.budget.toLocaleString('en-US');
        if ('notMeasured' in row.measured) return [row.label, flags, '', `not measured: ${row.measured.notMeasured}`, budget, verdict(undefined)];
        const { tools, tokens: counted } = row.measured;
        return [row.label, flags, String(tools), counted.toLocaleString('en-US'), budget, verdict(counted <= row.budget)];
      }),
    ),
  );
}

function mechanismGains(r: BenchResults): string {
  return orWhy(r.mechanisms, ({ rows }) =>
    table(
      ['mechanism', 'page', 'product', 'plain', 'less time'],
      rows.map((row) => [row.mechanism, bytesCell(row.bodyBytes), ms(row.fast.median), ms(row.plain.median), `${Math.round(gainOf(row) * 100)}%`]),
    ),
  );
}

function throughput(r: BenchResults): string {
  return orWhy(r.throughput, (rows) => {
    const before = rows.find((t) => t.server === 'before');
    return table(
      ['server', 'clients', 'calls/s', 'p50', 'p99', 'calls', 'calls/s against before'],
      rows.map((t) => [
        t.server,
        String(t.clients),
        fmt(t.callsPerSecond),
        ms(t.p50Ms),
        ms(t.p99Ms),
        String(t.calls),
        before ? ratio(t.callsPerSecond, before.callsPerSecond) : 'n/a',
      ]),
    );
  });
}

/** One line a mechanism: what it is, its gain on each page, and whether it keeps its place. */
function mechanismsKept(r: BenchResults): string {
  return orWhy(r.mechanisms, ({ measured, rows }) =>
    measured
      .map((m) => {
        const own = rows.filter((row) => row.mechanism === m.name);
        const gains = own.map((row) => `${Math.round(gainOf(row) * 100)}% at ${bytesCell(row.bodyBytes)}`).join(', ');
        const winning = own.filter((row) => gainOf(row) >= MECHANISM_MIN_GAIN).map((row) => bytesCell(row.bodyBytes));
        const verdict =
          winning.length > 0
            ? `Kept: it wins >= ${MECHANISM_MIN_GAIN * 100}% at ${winning.join(', ')}`
            : `**It wins >= ${MECHANISM_MIN_GAIN * 100}% nowhere: take it out**`;
        return `- **${m.name}**: ${m.fast} instead of ${m.plain}; less time: ${gains}. ${verdict}.`;
      })
      .join('\n'),
  );
}

function howToRun(): string {
  return `The baseline is a checkout of the commit to compare against (the run of record: ${BASELINE_COMMIT}, main before issue 40) with its own \`dist/\` built and a \`.bench-commit\` file naming it:

\`\`\`sh
git worktree add ../baseline ${BASELINE_COMMIT}
(cd ../baseline && npm ci && npm run build && git rev-parse --short HEAD > .bench-commit)
npm run bench -- --before ../baseline            # the run of record: writes docs/benchmarks.md
npm run bench -- --quick --before ../baseline    # fewer samples: writes build/bench/benchmarks.md
npm run bench -- --only per-call,spill --before ../baseline   # those parts only (start-up, tools-list, per-call, spill, throughput, code-mode, mechanisms): build/bench/benchmarks.md
\`\`\`

A run builds this checkout first, installs Node 24 once into ~/.cache (\`.ci/install-node 24\`), and writes its figures to build/bench/results.json too. It exits non-zero only when a part could not run (that part's rows then say why); a budget missed is a row that says so. Make the run of record on a quiet machine: other work slows every figure, and although ratios taken in turns cancel most of it, they do not cancel all of it.`;
}

/** docs/benchmarks.md (build/bench/benchmarks.md for a quick run): budgets, method, the run's tables, how to run it. */
export function renderReport(r: BenchResults): string {
  const m = r.machine;
  const baseline = r.beforeCommit === undefined ? 'no baseline given (`--before`), so no ratio to it' : `against the baseline ${r.beforeCommit}`;
  return `# Benchmarks

What the budgets of issue 40 measure, as ratios of figures taken in one run of \`npm run bench\`: this commit against a build from before it, on the same machine, taking turns.${r.mode === 'quick' ? ' **This is a quick run** (fewer samples): not a run of record.' : ''}

## Targets

${targets(targetsOf(r))}

## Method

${method(r)}

## Run of record

Written by \`${r.command}\` (${r.mode} run, ${fmt(r.minutes)} minutes) on ${r.date}, at commit ${m.commit}, ${baseline}. Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; load average (1, 5, 15 min) ${m.loadAtStart.join(', ')} at the start, ${r.loadAtEnd.join(', ')} at the end.

### Start-up to the first tools/list

${startup(r)}

The floor column reads against the budgets: where before is under 1x of the SDK alone, the baseline started faster than any server of this SDK can on supported means; it did so with two of the tricks issue 40 took out (the SDK's protocol schemas rewritten in the build to be made on first use, and a vm.Script code cache). Ours over the floor is our own start-up: the kernel, its plugins and their schemas.

### jira_get per call

${perCall(r)}

### Memory

${memory(r)}

### Tokens: tools/list

${tokens(r)}

${CODE_MODE_HEADING}

${codeModeSection(r.codeMode)}

### Mechanisms against the plain way

${mechanismGains(r)}

### Throughput: uncached github_list_workflow_runs

${throughput(r)}

## Mechanisms

${mechanismsKept(r)}

## How to run

${howToRun()}
`;
}
