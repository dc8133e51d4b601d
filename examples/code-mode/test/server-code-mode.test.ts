import { expect } from 'chai';
import { measureServerCodeMode, type ServerMeasurement } from '../src/measure/server-code-mode.js';
import { SERVER_TASKS } from '../src/tasks/all-tasks.js';
import { startVendorWorld, type VendorWorld } from '../src/tasks/vendor-world.js';

describe("the six tasks, done directly and through the server's own code mode (--code-mode: search_tools + execute)", () => {
  let world: VendorWorld;
  let measured: ServerMeasurement;

  before(async function () {
    this.timeout(300_000);
    world = await startVendorWorld(SERVER_TASKS);
    measured = await measureServerCodeMode(SERVER_TASKS, world);
  });
  after(async () => {
    await world?.close();
  });

  for (const [i, task] of SERVER_TASKS.entries()) {
    it(`${task.id}: both ways give the right answer; the program makes the same calls in two model turns`, () => {
      const { direct, codeMode } = measured.tasks[i]!;
      expect(direct.answer, 'direct').to.deep.equal(task.expected());
      expect(codeMode.answer, 'code mode').to.deep.equal(task.expected());
      expect(codeMode.toolCalls, "the program's calls, as _meta lists them").to.equal(direct.toolCalls);
      expect(codeMode.turns).to.equal(2);
    });
  }

  it('lists three tools in code mode, and fewer tokens of them than any direct server', () => {
    const { direct, catalogue, codeMode } = measured.definitions;
    expect(codeMode.tools).to.equal(3);
    expect(codeMode.tokens).to.be.below(direct.tokens).and.below(catalogue.tokens);
  });
});
