import type { Clock } from '../../core/store/key-value-store.js';
import { everyToolUnlessChosen } from './every-tool.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel, type TestKernel } from './test-kernel.js';

export interface VendorKernelOptions {
  /** Vendor plugins to load (the config file's `plugins`). */
  plugins: string[];
  /** More config file keys, such as `disable`. */
  config?: Record<string, unknown>;
  /** Settings, given the vendor mock's URL and those of the other mocks. */
  env(mockUrl: string, others: string[]): Record<string, string>;
  clock?: Clock;
  /** Further mock servers: a blob host, another origin. */
  otherMocks?: number;
}

/** What the hooks set up; read its fields inside tests (they are filled in `before`). */
export interface VendorKernel {
  /** The vendor API stand-in. */
  mock: MockUpstream;
  others: MockUpstream[];
  kernel: TestKernel;
}

/**
 * Registers the hooks every vendor test block needs: loopback mocks started before and closed after, a test
 * kernel whose settings point at them, and every mock's routes and recorded requests reset before each test.
 */
export function useVendorKernel(options: VendorKernelOptions): VendorKernel {
  const fixture = { others: [] as MockUpstream[] } as VendorKernel;
  const mocks = (): MockUpstream[] => [fixture.mock, ...fixture.others].filter((m) => m !== undefined);
  before(async () => {
    fixture.mock = await MockUpstream.start();
    for (let i = 0; i < (options.otherMocks ?? 0); i++) fixture.others.push(await MockUpstream.start());
    fixture.kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: options.plugins, ...options.config }) },
      env: everyToolUnlessChosen(
        options.env(
          fixture.mock.url,
          fixture.others.map((m) => m.url),
        ),
      ),
      clock: options.clock,
    });
  });
  after(async () => {
    await fixture.kernel?.close();
    for (const mock of mocks()) await mock.close();
  });
  beforeEach(() => {
    for (const mock of mocks()) mock.reset();
  });
  return fixture;
}
