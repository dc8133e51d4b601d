import { isDeepStrictEqual } from 'node:util';
import { ALL_TASKS } from '../tasks/all-tasks.js';
import { startVendorWorld } from '../tasks/vendor-world.js';
import { writeDocumentedTables } from './harness-doc.js';
import { measureFixedCost, measureTask, type TaskMeasure } from './measure-task.js';
import { measurementTables } from './measurement-table.js';

/**
 * `npm run harness:measure`: runs the three tasks both ways against the loopback vendors, checks that both ways
 * give the expected answer, and prints the tables; with `--write` it also puts them into docs/harness.md and
 * docs/structured-output.md.
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
    const tables = measurementTables(measures, await measureFixedCost(world));
    console.log(tables);
    if (process.argv.includes('--write')) {
      writeDocumentedTables(tables);
      console.error('docs/harness.md and docs/structured-output.md updated');
    }
  } finally {
    await world.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
