import type { Reading } from './token-count.js';
import type { TaskMeasure } from './measure-task.js';

export interface FixedCost {
  /** The tools as a client hands them to the model's API: name, description, input schema, JSON. */
  toolsList: Reading;
  /** The declarations generated from them, which a code-mode model reads instead. */
  declarations: Reading;
}

const number = (n: number): string => n.toLocaleString('en-US');
const saved = (direct: number, program: number): string => `−${Math.round((1 - program / direct) * 100)}%`;

/** The table of docs/harness.md: one row per task, both ways, and the totals. */
export function measurementTable(measures: readonly TaskMeasure[]): string {
  const rows = [
    '| Task | Way | Model turns | Tool calls | Bytes read | Tokens read |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const { task, direct, program } of measures) {
    rows.push(`| ${task.id} | direct | ${direct.turns} | ${direct.toolCalls} | ${number(direct.bytes)} | ${number(direct.tokens)} |`);
    rows.push(
      `| | program | ${program.turns} | ${program.toolCalls} | ${number(program.bytes)} (${saved(direct.bytes, program.bytes)}) | ${number(program.tokens)} (${saved(direct.tokens, program.tokens)}) |`,
    );
  }
  const total = (way: 'direct' | 'program', key: 'turns' | 'toolCalls' | 'bytes' | 'tokens'): number => measures.reduce((sum, m) => sum + m[way][key], 0);
  rows.push(`| all three | direct | ${total('direct', 'turns')} | ${total('direct', 'toolCalls')} | ${number(total('direct', 'bytes'))} | ${number(total('direct', 'tokens'))} |`);
  rows.push(
    `| | program | ${total('program', 'turns')} | ${total('program', 'toolCalls')} | ${number(total('program', 'bytes'))} (${saved(total('direct', 'bytes'), total('program', 'bytes'))}) | ${number(total('program', 'tokens'))} (${saved(total('direct', 'tokens'), total('program', 'tokens'))}) |`,
  );
  return rows.join('\n');
}

/** Both tables of docs/harness.md, as the measurement prints them. */
export function measurementTables(measures: readonly TaskMeasure[], cost: FixedCost): string {
  return `${measurementTable(measures)}\n\n${fixedCostTable(cost)}`;
}

/** The fixed cost of each way: what the model reads about the tools before any task. */
export function fixedCostTable(cost: FixedCost): string {
  return [
    '| What the model reads about the tools | Bytes | Tokens |',
    '| --- | ---: | ---: |',
    `| direct: the tool definitions (name, description and input schema of each, JSON) | ${number(cost.toolsList.bytes)} | ${number(cost.toolsList.tokens)} |`,
    `| program: the generated declarations | ${number(cost.declarations.bytes)} | ${number(cost.declarations.tokens)} |`,
  ].join('\n');
}
