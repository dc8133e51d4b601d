import { CodeModeHarness } from '../../src/harness/code-mode-harness.js';
import type { Task } from '../../src/tasks/task.js';
import { startVendorWorld, type ServerSetup, type VendorWorld } from '../../src/tasks/vendor-world.js';

export interface HarnessSession {
  world: VendorWorld;
  harness: CodeModeHarness;
}

/**
 * Mocha hooks for a test block: the vendor mock with the given tasks' data, and a harness connected to a real
 * server pointed at it (started once for the block, closed after it); recorded requests are cleared per test.
 */
export function useHarness(tasks: readonly Task[], setup: ServerSetup = {}): HarnessSession {
  const session = {} as HarnessSession;
  before(async () => {
    session.world = await startVendorWorld(tasks);
    session.harness = await CodeModeHarness.start(session.world.server(setup));
  });
  after(async () => {
    await session.harness?.close();
    await session.world?.close();
  });
  beforeEach(() => {
    if (session.world !== undefined) session.world.mock.requests.length = 0;
  });
  return session;
}
