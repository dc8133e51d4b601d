import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { CodeModeHarness } from '../harness/code-mode-harness.js';
import { ALL_TASKS } from '../tasks/all-tasks.js';
import { startVendorWorld } from '../tasks/vendor-world.js';
import { measureTask, type TaskMeasure } from './measure-task.js';
import { fixedCostTable, measurementTable, type FixedCost } from './measurement-table.js';
import { reading } from './token-count.js';

const DOC = new URL('../../../../../docs/harness.md', import.meta.url);
const BEGIN = '<!-- measurement: begin (npm run harness:measure) -->';
const END = '<!-- measurement: end -->';

/**
 * `npm run harness:measure`: runs the three tasks both ways against the loopback vendors, checks that both ways
 * give the expected answer, prints the tables, and with `--write` puts them into docs/harness.md.
 */
async function main(): Promise<void> {
  const world = await startVendorWorld(ALL_TASKS);
  try {
    const measures: TaskMeasure[] = [];
    for (const task of ALL_TASKS) {
      const measure = await measureTask(task, world);
      for (const way of ['direct', 'program'] as const) {
        if (!isDeepStrictEqual(measure[way].answer, task.expected())) throw new Error(`${task.id}: the ${way} way's answer is not the expected one:\n${JSON.stringify(measure[way].answer)}`);
      }
      measures.push(measure);
    }
    const tables = `${measurementTable(measures)}\n\n${fixedCostTable(await fixedCost(world.server()))}`;
    console.log(tables);
    if (process.argv.includes('--write')) {
      const doc = readFileSync(DOC, 'utf8');
      const start = doc.indexOf(BEGIN);
      const end = doc.indexOf(END);
      if (start < 0 || end < start) throw new Error(`docs/harness.md has no "${BEGIN}" ... "${END}" block to replace`);
      writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n${tables}\n${doc.slice(end)}`);
      console.error('docs/harness.md updated');
    }
  } finally {
    await world.close();
  }
}

async function fixedCost(options: Parameters<typeof CodeModeHarness.start>[0]): Promise<FixedCost> {
  const harness = await CodeModeHarness.start(options);
  try {
    return { toolsList: reading([JSON.stringify(harness.tools)]), declarations: reading([harness.declarations]) };
  } finally {
    await harness.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

