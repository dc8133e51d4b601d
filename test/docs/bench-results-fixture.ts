import type { MechanismRow } from '../bench/mechanism-gains.js';
import type { PerCallRow } from '../bench/per-call.js';
import type { BenchResults } from '../bench/results.js';
import type { Summary } from '../bench/stats.js';

const MiB = 1024 * 1024;
const SIZES = [2 * 1024, 100 * 1024, MiB, 5 * MiB];

/** Samples whose median is `median` (the other figures near it). */
export const summary = (median: number): Summary => ({ median, p25: median * 0.9, p75: median * 1.1, p99: median * 1.5, n: 30 });

/** Every per-call row of a full run: ours at `ratio` of before, except where `slower` names a row. */
function perCallRows(ratio: number, slower?: { bodyBytes: number; format: 'toon' | 'json'; jq: boolean; ratio: number }): PerCallRow[] {
  return SIZES.flatMap((bodyBytes) =>
    (['toon', 'json'] as const).flatMap((format) =>
      [false, true].map((jq) => {
        const before = bodyBytes / 100_000 + 1;
        const r = slower && slower.bodyBytes === bodyBytes && slower.format === format && slower.jq === jq ? slower.ratio : ratio;
        return { bodyBytes, format, jq, times: { ours: summary(before * r), before: summary(before), reference: summary(before * 2) } };
      }),
    ),
  );
}

const mechanismRows = (name: string, gains: number[]): MechanismRow[] =>
  SIZES.map((bodyBytes, i) => ({ mechanism: name, bodyBytes, fast: summary(10 * (1 - gains[i]!)), plain: summary(10) }));

/**
 * The results of a full run with a baseline, every part measured: start-up 1.2x of before on the machine's
 * Node (within 1.3x) and 1.05x on Node 24 (over 1.0x); jira_get 0.9x of before but 1.2x on 5 MiB JSON with a
 * jq; the spill at 5.5x its value on a fresh server (before: 7.8x), 3.5x on a warm one; the dynamic configuration not starting; the TOON encoder gaining 60-70%, the
 * JSON reading under 10% everywhere.
 */
export function fullRun(): BenchResults {
  const value = 16 * MiB;
  return {
    mode: 'full',
    command: 'npm run bench -- --before DIR',
    date: '2027-01-04 10:00 UTC',
    minutes: 19.5,
    machine: { cpu: 'Test CPU', cores: 2, memoryGiB: 8, os: 'Linux 6.1', node: 'v20.20.2', commit: 'abc1234', loadAtStart: [0.1, 0.2, 0.3] },
    loadAtEnd: [0.4, 0.5, 0.6],
    plan: {
      startups: 21,
      warmUpCalls: 2000,
      callsBySize: SIZES.map((bytes) => [bytes, 10]),
      spillRuns: 5,
      spillWarmCalls: 600,
      throughput: { clients: 16, windowSeconds: 2, rounds: 6 },
    },
    beforeCommit: '59d3ba4',
    startup: [
      {
        runtime: "the machine's Node",
        budget: 1.3,
        outcome: { ok: true, value: { node: 'v20.20.2', ours: summary(120), before: summary(100), oursCacheFiles: 0 } },
      },
      { runtime: 'Node 24', budget: 1.0, outcome: { ok: true, value: { node: 'v24.22.3', ours: summary(105), before: summary(100), oursCacheFiles: 12 } } },
    ],
    perCall: { ok: true, value: { rows: perCallRows(0.9, { bodyBytes: 5 * MiB, format: 'json', jq: true, ratio: 1.2 }), warmUpCalls: 2000 } },
    spill: {
      ok: true,
      value: [
        { server: 'ours', start: 'fresh', runs: 5, valueBytes: value, idleRssBytes: 80 * MiB, peakRssBytes: 80 * MiB + 5.5 * value },
        { server: 'before', start: 'fresh', runs: 5, valueBytes: value, idleRssBytes: 80 * MiB, peakRssBytes: 80 * MiB + 7.8 * value },
        { server: 'ours', start: 'warm', runs: 5, valueBytes: value, idleRssBytes: 80 * MiB, peakRssBytes: 80 * MiB + 3.5 * value },
        { server: 'before', start: 'warm', runs: 5, valueBytes: value, idleRssBytes: 85 * MiB, peakRssBytes: 85 * MiB + 19 * value },
      ],
    },
    mechanisms: {
      ok: true,
      value: {
        measured: [
          { name: 'fast TOON encoder', fast: 'toonPieces', plain: 'encode(value, { indent: 2 })' },
          { name: 'byte-level JSON reading', fast: 'parseJsonBytes', plain: 'JSON.parse' },
        ],
        rows: [...mechanismRows('fast TOON encoder', [0.6, 0.65, 0.7, 0.7]), ...mechanismRows('byte-level JSON reading', [-0.5, 0.02, 0.05, 0.08])],
      },
    },
    toolsList: {
      ok: true,
      value: [
        { label: 'every tool', args: ['--toolsets', 'all'], budget: 22_000, measured: { tools: 70, tokens: 21_000 } },
        { label: 'the default set', args: [], budget: 12_000, measured: { tools: 35, tokens: 12_500 } },
        {
          label: 'dynamic toolsets',
          args: ['--dynamic-toolsets'],
          budget: 1_500,
          measured: { notMeasured: "the server exited (1) before listing its tools: error: unknown option '--dynamic-toolsets'" },
        },
      ],
    },
    throughput: {
      ok: true,
      value: [
        { server: 'ours', clients: 16, callsPerSecond: 150, p50Ms: 90, p99Ms: 200, calls: 1800 },
        { server: 'before', clients: 16, callsPerSecond: 100, p50Ms: 140, p99Ms: 300, calls: 1200 },
      ],
    },
  };
}
