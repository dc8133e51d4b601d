import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { SERVER_TASKS } from '../tasks/all-tasks.js';
import { startVendorWorld } from '../tasks/vendor-world.js';
import { measureServerCodeMode } from './server-code-mode.js';

/**
 * `npm run measure:server [-- --json FILE]`: the six tasks done directly and through the server's own code mode
 * (search_tools + execute), each answer checked against the data set; prints the figures as JSON (the bench's
 * code-mode section renders them), or writes them to FILE.
 */
async function main(): Promise<void> {
  const world = await startVendorWorld(SERVER_TASKS);
  try {
    const measurement = await measureServerCodeMode(SERVER_TASKS, world);
    for (const [i, task] of SERVER_TASKS.entries()) {
      for (const way of ['direct', 'codeMode'] as const) {
        const answer = measurement.tasks[i]![way].answer;
        if (!isDeepStrictEqual(answer, task.expected())) throw new Error(`${task.id}: the ${way} answer is not the expected one:\n${JSON.stringify(answer)}`);
      }
    }
    const json = `${JSON.stringify({ ...measurement, tasks: measurement.tasks.map(({ direct, codeMode, id }) => ({ id, direct: { ...direct, answer: undefined }, codeMode: { ...codeMode, answer: undefined } })) }, null, 2)}\n`;
    const at = process.argv.indexOf('--json');
    if (at >= 0 && process.argv[at + 1] !== undefined) writeFileSync(process.argv[at + 1]!, json);
    else process.stdout.write(json);
  } finally {
    await world.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
