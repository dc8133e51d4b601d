import { codeModeTargets } from './code-mode-report.js';
import { gainOf, MECHANISM_MIN_GAIN, type MechanismRow } from './mechanism-gains.js';
import type { PerCallRow } from './per-call.js';
import type { SpillStart } from './spill-memory.js';
import type { BenchResults, Outcome, StartupOn } from './results.js';
import { bytesCell, fmt, ratio } from './stats.js';

/** One of issue 40's budgets as this run measured it; `met` is undefined where it could not be measured. */
export interface TargetRow {
  target: string;
  budget: string;
  figure: string;
  met: boolean | undefined;
}

/** jira_get per call: ours / before at most this on every row. */
export const PER_CALL_BUDGET = 1.15;
/** Peak resident memory over idle for one spilled value, in multiples of the value. */
export const SPILL_BUDGET = 6;

const NO_BEFORE = 'not measured: run with --before DIR';
const notMeasured = (why: string): Omit<TargetRow, 'target' | 'budget'> => ({
  figure: why.startsWith('not measured') ? why : `not measured: ${why}`,
  met: undefined,
});
const errorOf = (o: Outcome<unknown>): string => (o.ok ? '' : o.error);
/** A budget as a multiple: 1.3x, 1.0x, 1.15x. */
export const timesCell = (budget: number): string => `${Number.isInteger(budget) ? budget.toFixed(1) : budget}x`;

/** A row's ours / before, where the baseline was measured. */
export const perCallRatio = (row: PerCallRow): number | undefined =>
  row.times.before === undefined ? undefined : row.times.ours.median / row.times.before.median;
/** Where a row sits: `1.00 MiB, json +jq`. */
export const rowName = (row: Pick<PerCallRow, 'bodyBytes' | 'format' | 'jq'>): string => `${bytesCell(row.bodyBytes)}, ${row.format}${row.jq ? ' +jq' : ''}`;

function startupTarget(s: StartupOn): TargetRow {
  const head = {
    target: `start-up to the first tools/list, ${s.runtime}${s.outcome.ok ? ` (${s.outcome.value.node})` : ''}`,
    budget: `ours / before <= ${timesCell(s.budget)}`,
  };
  if (!s.outcome.ok) return { ...head, ...notMeasured(s.outcome.error) };
  const { ours, before } = s.outcome.value;
  if (before === undefined) return { ...head, ...notMeasured(NO_BEFORE) };
  return {
    ...head,
    figure: `${ratio(ours.median, before.median)} (${fmt(ours.median)} against ${fmt(before.median)} ms)`,
    met: ours.median <= s.budget * before.median,
  };
}

function perCallTarget(r: BenchResults): TargetRow {
  const head = { target: 'jira_get per call over stdio, every size and format', budget: `ours / before <= ${PER_CALL_BUDGET}x on every row` };
  if (!r.perCall.ok) return { ...head, ...notMeasured(r.perCall.error) };
  const rows = r.perCall.value.rows.filter((row) => perCallRatio(row) !== undefined);
  if (rows.length === 0) return { ...head, ...notMeasured(NO_BEFORE) };
  const worst = rows.reduce((a, b) => (perCallRatio(b)! > perCallRatio(a)! ? b : a));
  const within = rows.filter((row) => perCallRatio(row)! <= PER_CALL_BUDGET).length;
  return { ...head, figure: `worst ${fmt(perCallRatio(worst)!)}x (${rowName(worst)}); ${within} of ${rows.length} rows within`, met: within === rows.length };
}

/** Peak over idle of a spill row, in multiples of its value. */
export const spillMultiple = (s: { peakRssBytes: number; idleRssBytes: number; valueBytes: number }): number =>
  (s.peakRssBytes - s.idleRssBytes) / s.valueBytes;

/**
 * The spill budget, fresh and warm: issue 50 judges the first big value a fresh server meets (idle after one
 * small call, as an operator sizes a memory limit), issue 40 a server that has answered hundreds first.
 */
function spillTargets(r: BenchResults): TargetRow[] {
  const budget = `<= ${SPILL_BUDGET}x the value`;
  const target = (start: SpillStart): string =>
    start === 'fresh'
      ? 'one 16 MiB value spilled to an artifact and read back, fresh server: peak RSS over the RSS after one small call'
      : `one 16 MiB value spilled to an artifact and read back, after ${r.plan.spillWarmCalls} small calls: peak RSS over idle`;
  const spill = r.spill;
  if (!spill.ok) return (['fresh', 'warm'] as const).map((start) => ({ target: target(start), budget, ...notMeasured(spill.error) }));
  return (['fresh', 'warm'] as const).flatMap((start) => {
    const ours = spill.value.find((s) => s.server === 'ours' && s.start === start);
    if (ours === undefined) return [];
    const before = spill.value.find((s) => s.server === 'before' && s.start === start);
    const figure = `+${bytesCell(ours.peakRssBytes - ours.idleRssBytes)} = ${fmt(spillMultiple(ours))}x${before ? ` (before: ${fmt(spillMultiple(before))}x)` : ''}`;
    return [{ target: target(start), budget, figure, met: spillMultiple(ours) <= SPILL_BUDGET }];
  });
}

function toolsListTargets(r: BenchResults): TargetRow[] {
  if (!r.toolsList.ok) return [{ target: 'tools/list tokens', budget: 'per configuration', ...notMeasured(r.toolsList.error) }];
  return r.toolsList.value.map((row) => {
    const head = {
      target: `tools/list, ${row.label}${row.args.length > 0 ? ` (\`${row.args.join(' ')}\`)` : ''}, structured output off`,
      budget: `<= ${row.budget.toLocaleString('en-US')} o200k tokens`,
    };
    if ('notMeasured' in row.measured) return { ...head, ...notMeasured(row.measured.notMeasured) };
    return { ...head, figure: `${row.measured.tokens.toLocaleString('en-US')} tokens (${row.measured.tools} tools)`, met: row.measured.tokens <= row.budget };
  });
}

/** A mechanism's best row: where it gains the most. */
export const bestRowOf = (rows: MechanismRow[]): MechanismRow => rows.reduce((a, b) => (gainOf(b) > gainOf(a) ? b : a));

function mechanismTargets(r: BenchResults): TargetRow[] {
  const budget = `wins >= ${MECHANISM_MIN_GAIN * 100}% on a page size`;
  if (!r.mechanisms.ok) return [{ target: 'mechanisms', budget, ...notMeasured(r.mechanisms.error) }];
  const { measured, rows } = r.mechanisms.value;
  return measured.map((m) => {
    const own = rows.filter((row) => row.mechanism === m.name);
    if (own.length === 0) return { target: `mechanism: ${m.name}`, budget, ...notMeasured('no rows') };
    const best = bestRowOf(own);
    return {
      target: `mechanism: ${m.name}`,
      budget,
      figure: `best ${Math.round(gainOf(best) * 100)}% less time (${bytesCell(best.bodyBytes)})`,
      met: gainOf(best) >= MECHANISM_MIN_GAIN,
    };
  });
}

/** Every budget of issue 40, in the order the report lists them. */
export function targetsOf(r: BenchResults): TargetRow[] {
  return [
    ...r.startup.map(startupTarget),
    perCallTarget(r),
    ...spillTargets(r),
    ...toolsListTargets(r),
    ...mechanismTargets(r),
    ...codeModeTargets(r.codeMode),
  ];
}

/** The parts that could not run: why the run exits non-zero. */
export function failuresOf(r: BenchResults): string[] {
  const parts: Array<[string, Outcome<unknown>]> = [
    ...r.startup.map((s): [string, Outcome<unknown>] => [`start-up, ${s.runtime}`, s.outcome]),
    ['jira_get per call', r.perCall],
    ['spill memory', r.spill],
    ['mechanisms', r.mechanisms],
    ['tools/list tokens', r.toolsList],
    ['throughput', r.throughput],
    ...(r.codeMode === undefined ? [] : [['code mode', r.codeMode] as [string, Outcome<unknown>]]),
  ];
  return parts.filter(([, o]) => !o.ok).map(([name, o]) => `${name}: ${errorOf(o)}`);
}
