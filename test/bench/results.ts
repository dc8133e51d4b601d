import type { CodeModeBench } from './code-mode.js';
import type { MachineInfo } from './machine.js';
import type { MechanismRow } from './mechanism-gains.js';
import type { Mechanism } from './mechanisms.js';
import type { PerCallResult } from './per-call.js';
import type { SpillMemoryRow } from './spill-memory.js';
import type { StartupResult } from './startup.js';
import type { ThroughputRow } from './throughput.js';
import type { ToolsListRow } from './tools-list-tokens.js';

/** A part of the bench's figures, or why it could not run (then the run exits non-zero, the report still written). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** Start-up on one runtime, with the budget of ours / before there. */
export interface StartupOn {
  /** "the machine's Node", "Node 24". */
  runtime: string;
  budget: number;
  outcome: Outcome<StartupResult>;
}

/** How much of each was measured: what the method paragraph states. */
export interface BenchPlan {
  startups: number;
  warmUpCalls: number;
  /** Calls per server and row, by page size (bytes asked for). */
  callsBySize: Array<[number, number]>;
  spillRuns: number;
  /** Small calls a warm server answers before the spill (a fresh one answers one). */
  spillWarmCalls: number;
  throughput: { clients: number; windowSeconds: number; rounds: number };
}

/** Everything one run measured: what docs/benchmarks.md is rendered from (also written to build/bench/results.json). */
export interface BenchResults {
  mode: 'full' | 'quick';
  command: string;
  date: string;
  minutes: number;
  machine: MachineInfo;
  loadAtEnd: number[];
  plan: BenchPlan;
  /** The baseline commit measured beside this one (`--before`), when one was given. */
  beforeCommit?: string;
  startup: StartupOn[];
  perCall: Outcome<PerCallResult>;
  spill: Outcome<SpillMemoryRow[]>;
  mechanisms: Outcome<{ measured: Array<Pick<Mechanism, 'name' | 'fast' | 'plain'>>; rows: MechanismRow[] }>;
  toolsList: Outcome<ToolsListRow[]>;
  throughput: Outcome<ThroughputRow[]>;
  /** Code mode (issue 54); absent from runs made before it. */
  codeMode?: Outcome<CodeModeBench>;
}
