import { startTestKernel as startKitKernel, type TestKernel, type TestKernelOptions } from '../../server/testing/test-kernel.js';
import { everyToolUnlessChosen } from './every-tool.js';

// The test kit's kernel, as the suite's tests start it: every tool served unless a test names a selection
// (every-tool.ts says why).
export { textOf, type TestKernel, type TestKernelOptions } from '../../server/testing/test-kernel.js';

export function startTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  return startKitKernel({ ...options, env: everyToolUnlessChosen(options.env) });
}
