import { basename } from 'node:path';
import { expect } from 'chai';
import { documentedCode, documentedTables, MEASURED_DOCS } from '../src/measure/harness-doc.js';
import { measureFixedCost, measureTask, type TaskMeasure } from '../src/measure/measure-task.js';
import { measurementTables, type FixedCost } from '../src/measure/measurement-table.js';
import { ALL_TASKS } from '../src/tasks/all-tasks.js';
import { startVendorWorld, type VendorWorld } from '../src/tasks/vendor-world.js';

describe('the three tasks of docs/harness.md, done both ways against loopback vendors', () => {
  let world: VendorWorld;
  const measures: TaskMeasure[] = [];
  let fixedCost: FixedCost;

  before(async function () {
    this.timeout(180_000);
    world = await startVendorWorld(ALL_TASKS);
    for (const task of ALL_TASKS) measures.push(await measureTask(task, world));
    fixedCost = await measureFixedCost(world);
  });
  after(async () => {
    await world?.close();
  });

  for (const [i, task] of ALL_TASKS.entries()) {
    it(`${task.id}: the direct way (from the TOON it read) and the program give the same, right answer`, () => {
      const { direct, program } = measures[i]!;
      expect(direct.answer, 'direct').to.deep.equal(task.expected());
      expect(program.answer, 'program').to.deep.equal(direct.answer);
    });

    it(`${task.id}: the program makes the same tool calls in one model turn, and the model reads less`, () => {
      const { direct, program } = measures[i]!;
      expect(program.toolCalls).to.equal(direct.toolCalls);
      expect(program.turns).to.equal(1);
      expect(direct.turns).to.be.greaterThan(1);
      expect(program.tokens).to.be.lessThan(direct.tokens);
    });
  }

  it('each data set gives a non-trivial answer', () => {
    const [jobs, issues, pipelines] = ALL_TASKS.map((t) => t.expected()) as [{ ranking: unknown[] }, { byPriority: unknown[]; open: number }, unknown[]];
    expect(jobs.ranking.length).to.be.greaterThan(4);
    expect(issues.byPriority).to.have.length(5);
    expect(issues.open).to.be.greaterThan(100);
    expect(pipelines.length).to.be.greaterThan(5);
  });

  it('docs/harness.md shows the program of task 1 as it was run', () => {
    expect(`${documentedCode('program: failing-jobs')}\n`).to.equal(ALL_TASKS[0]!.program());
  });

  for (const doc of MEASURED_DOCS) {
    it(`docs/${basename(doc)} shows the tables this run measured (npm run harness:measure)`, () => {
      expect(documentedTables(doc)).to.equal(measurementTables(measures, fixedCost));
    });
  }
});
