import type { CodeModeBench, CodeModeTokens } from './code-mode.js';
import type { Outcome } from './results.js';
import { fmt } from './stats.js';

/** Issue 54's budgets: tokens of the six tasks at least 90% fewer; execute at most 5 ms over the direct call; a sandbox ready in 10 ms. */
export const CODE_MODE_TOKEN_SAVING = 0.9;
export const EXECUTE_OVERHEAD_MS = 5;
export const SANDBOX_STARTUP_MS = 10;

/** The run-of-record subsection's heading (`npm run bench:code-mode` finds it to replace what follows). */
export const CODE_MODE_HEADING = '### Code mode: search_tools + execute against direct calls';

/** One budget row, as targets.ts renders them. */
export interface CodeModeTarget {
  target: string;
  budget: string;
  figure: string;
  met: boolean | undefined;
}

const number = (n: number): string => n.toLocaleString('en-US');
const table = (head: string[], rows: string[][]): string =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** Tokens of everything the model reads and writes doing the six tasks, each task a conversation of its own. */
export function tokenTotals(t: CodeModeTokens): { direct: number; catalogue: number; codeMode: number } {
  const sum = (way: 'direct' | 'codeMode'): number => t.tasks.reduce((s, task) => s + task[way].written.tokens + task[way].read.tokens, 0);
  const n = t.tasks.length;
  return {
    direct: sum('direct') + n * t.definitions.direct.tokens,
    catalogue: sum('direct') + n * t.definitions.catalogue.tokens,
    codeMode: sum('codeMode') + n * t.definitions.codeMode.tokens,
  };
}

const fewer = (base: number, ours: number): number => 1 - ours / base;
const percent = (share: number): string => `${Math.round(share * 100)}%`;

export function codeModeTargets(o: Outcome<CodeModeBench> | undefined): CodeModeTarget[] {
  const heads = [
    { target: 'code mode: tokens of six tasks, search_tools + execute against direct calls', budget: `>= ${percent(CODE_MODE_TOKEN_SAVING)} fewer` },
    { target: 'code mode: execute with one inner call against the direct call', budget: `<= ${EXECUTE_OVERHEAD_MS} ms more (median)` },
    { target: 'code mode: sandbox start-up per program', budget: `<= ${SANDBOX_STARTUP_MS} ms (median)` },
  ];
  if (o === undefined || !o.ok) return heads.map((h) => ({ ...h, figure: `not measured${o === undefined ? '' : `: ${o.error}`}`, met: undefined }));
  const { tokens, overhead, sandboxStartup } = o.value;
  const totals = tokenTotals(tokens);
  const extraSame = overhead.executeSame.median - overhead.direct.median;
  const extraNew = overhead.executeNew.median - overhead.direct.median;
  return [
    {
      ...heads[0]!,
      figure: `${percent(fewer(totals.direct, totals.codeMode))} fewer than direct with the tasks' toolsets listed (${number(totals.codeMode)} against ${number(totals.direct)}); ${percent(fewer(totals.catalogue, totals.codeMode))} with every tool listed`,
      met: fewer(totals.direct, totals.codeMode) >= CODE_MODE_TOKEN_SAVING,
    },
    {
      ...heads[1]!,
      figure: `+${fmt(extraSame)} ms, the same program again (compiled once); +${fmt(extraNew)} ms, a new program each time (type-checked)`,
      met: extraSame <= EXECUTE_OVERHEAD_MS && extraNew <= EXECUTE_OVERHEAD_MS,
    },
    { ...heads[2]!, figure: `${fmt(sandboxStartup.median)} ms (p99 ${fmt(sandboxStartup.p99)} ms)`, met: sandboxStartup.median <= SANDBOX_STARTUP_MS },
  ];
}

/** The run-of-record subsection: the six tasks both ways, the overhead, the sandbox's start-up. */
export function codeModeSection(o: Outcome<CodeModeBench> | undefined): string {
  if (o === undefined) return 'Not measured in this run.';
  if (!o.ok) return `Not measured: ${o.error}`;
  const { tokens: t, overhead, sandboxStartup } = o.value;
  const rows = t.tasks.map((task) => [
    task.id,
    `${task.direct.turns} / ${task.direct.toolCalls}`,
    `${number(task.direct.written.tokens)} + ${number(task.direct.read.tokens)}`,
    `${task.codeMode.turns} / ${task.codeMode.toolCalls}`,
    `${number(task.codeMode.written.tokens)} + ${number(task.codeMode.read.tokens)}`,
  ]);
  const totals = tokenTotals(t);
  const d = t.definitions;
  const s = overhead;
  return `Six tasks (examples/code-mode: the three of docs/harness.md and three more, on its loopback vendors), each done by a model calling tools directly (its agent: server-side filters, jq, TOON, independent calls in one turn) and through code mode (search_tools with a query, then execute with the task's program), each against a fresh server; both answers checked. Counted with o200k_base: every call the model writes (name and arguments, JSON) and every text it reads.

${table(['task', 'direct: turns / calls', 'direct: tokens written + read', 'code mode: turns / inner calls', 'code mode: tokens written + read'], rows)}

Each task is a conversation that starts with the tool definitions (tools/list as sent, o200k): direct, the toolsets the tasks use, ${number(d.direct.tokens)} tokens (${d.direct.tools} tools), or every tool, ${number(d.catalogue.tokens)} (${d.catalogue.tools}); code mode, ${number(d.codeMode.tokens)} (${d.codeMode.tools}). In all, direct ${number(totals.direct)} tokens (${number(totals.catalogue)} with every tool listed), code mode ${number(totals.codeMode)}: ${percent(fewer(totals.direct, totals.codeMode))} and ${percent(fewer(totals.catalogue, totals.codeMode))} fewer.

${codeModeParts(t)}

| call (github_list_workflow_runs, 2 runs, over stdio) | median | p99 |
| --- | --- | --- |
| direct | ${fmt(s.direct.median)} ms | ${fmt(s.direct.p99)} ms |
| execute, the same program (compiled once) | ${fmt(s.executeSame.median)} ms | ${fmt(s.executeSame.p99)} ms |
| execute, a new program each time (type-checked) | ${fmt(s.executeNew.median)} ms | ${fmt(s.executeNew.p99)} ms |
| sandbox start-up alone, per program (runtime, limits, prelude; its own WebAssembly instance made while the thread waited) | ${fmt(sandboxStartup.median)} ms | ${fmt(sandboxStartup.p99)} ms |`;
}

/** Where code mode's tokens go, over the six tasks: what the server chooses (tools/list, search_tools' answers) and what the tasks do (their programs, what they print). */
function codeModeParts(t: CodeModeTokens): string {
  const sum = (part: keyof CodeModeTokens['tasks'][number]['codeMode']['parts']): number =>
    t.tasks.reduce((s, task) => s + task.codeMode.parts[part].tokens, 0);
  const n = t.tasks.length;
  const rows = [
    [`the tool definitions (tools/list), once a task (${number(t.definitions.codeMode.tokens)} x ${n})`, number(n * t.definitions.codeMode.tokens)],
    ['search_tools: the calls written', number(sum('searchCall'))],
    ["search_tools: the answers read (the tools' declarations)", number(sum('searchAnswer'))],
    ["execute: the calls written (the tasks' programs)", number(sum('program'))],
    ["execute: the answers read (what the programs printed: the tasks' answers)", number(sum('printed'))],
  ];
  // What the server does not choose: the programs the tasks need and the answers they print.
  const tasks = sum('program') + sum('printed');
  const budget = Math.floor(tokenTotals(t).direct * (1 - CODE_MODE_TOKEN_SAVING));
  const listed = n * t.definitions.codeMode.tokens;
  const left = budget - tasks - listed;
  return (
    `Code mode's tokens by part, over the six tasks:\n\n${table(['part', 'tokens'], rows)}\n\n` +
    `The tasks' own part, their programs and what they print, is ${number(tasks)} tokens: ${percent(tasks / budget)} of the ${number(budget)} that ${percent(CODE_MODE_TOKEN_SAVING)} fewer allows; ` +
    `with tools/list read once a task (${number(listed)}), ${left >= 0 ? `${number(left)} would be left for searching` : `that is ${number(-left)} over it before any search`}.`
  );
}
