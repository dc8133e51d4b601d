import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { startTestKernel, type TestKernel } from '../../support/test-kernel.js';
import { structuredFixtureConfig } from './structured-fixtures.js';

let mock: MockUpstream;

/**
 * The bound in force, as a caller sees it: a string body one byte over `bytes` once wrapped as {"data": ...}
 * (11 bytes of envelope) is spilled, and its incomplete.limitBytes names the bound.
 */
async function limitSeenOver(kernel: TestKernel, bytes: number): Promise<unknown> {
  mock.reset();
  mock.on('GET', '/big', { headers: { 'content-type': 'application/json' }, body: JSON.stringify('x'.repeat(bytes - 10)) });
  const result = await kernel.call('fixture_atlassian_get', { path: '/big' });
  return ((result.structuredContent as Record<string, unknown> | undefined)?.incomplete as { limitBytes?: number } | undefined)?.limitBytes;
}

async function withKernel(options: Parameters<typeof startTestKernel>[0], check: (k: TestKernel) => Promise<void>): Promise<void> {
  const kernel = await startTestKernel(options);
  try {
    await check(kernel);
  } finally {
    await kernel.close();
  }
}

function warnings(kernel: TestKernel): string[] {
  return kernel.logs
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level === 40)
    .map((l) => l.msg);
}

describe('structured output settings', () => {
  before(async () => {
    mock = await MockUpstream.start();
  });
  after(async () => {
    await mock.close();
  });

  it('is off by default: no outputSchema, no structuredContent', async () => {
    await withKernel({ configFile: structuredFixtureConfig() }, async (kernel) => {
      expect(kernel.settings.get('MCP_STRUCTURED_OUTPUT')).to.equal(false);
      expect(kernel.settings.get('MCP_STRUCTURED_MAX_BYTES')).to.equal(262144);
      expect(kernel.kernel.listTools('2025-11-25').filter((t) => t.outputSchema !== undefined)).to.deep.equal([]);
      expect(await kernel.call('faulty_no_value', {})).not.to.have.property('structuredContent');
    });
  });

  it('is read through the cascade: a config file turns it on, the environment wins over the file', async () => {
    await withKernel(
      { configFile: structuredFixtureConfig({ settings: { MCP_STRUCTURED_OUTPUT: true, MCP_STRUCTURED_MAX_BYTES: 20000 } }) },
      async (kernel) => {
        expect(kernel.kernel.listTools().some((t) => t.outputSchema !== undefined)).to.equal(true);
        expect(kernel.settings.get('MCP_STRUCTURED_MAX_BYTES')).to.equal(20000);
      },
    );
    await withKernel(
      { configFile: structuredFixtureConfig({ settings: { MCP_STRUCTURED_OUTPUT: true } }), env: { MCP_STRUCTURED_OUTPUT: 'false' } },
      async (kernel) => {
        expect(kernel.kernel.listTools().some((t) => t.outputSchema !== undefined)).to.equal(false);
      },
    );
  });

  for (const [given, used] of [
    ['1000', 16384],
    ['99999999', 16777216],
  ] as const) {
    it(`clamps MCP_STRUCTURED_MAX_BYTES=${given} to ${used} and logs it`, async () => {
      await withKernel(
        {
          configFile: structuredFixtureConfig(),
          env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 't0ken', MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: given },
        },
        async (kernel) => {
          expect(warnings(kernel)).to.include(`MCP_STRUCTURED_MAX_BYTES=${given} is outside 16384-16777216; using ${used}.`);
          if (used === 16384) expect(await limitSeenOver(kernel, used)).to.equal(used); // the clamped bound is the one in force
        },
      );
    });
  }

  it('falls back to the default on an unparsable bound, and logs it instead of failing start-up', async () => {
    await withKernel(
      {
        configFile: structuredFixtureConfig(),
        env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 't0ken', MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '256k' },
      },
      async (kernel) => {
        expect(kernel.settings.get('MCP_STRUCTURED_MAX_BYTES')).to.equal(262144);
        expect(
          warnings(kernel).some((w) => w.startsWith('Setting MCP_STRUCTURED_MAX_BYTES="256k" from environment') && w.endsWith('using the default 262144.')),
        ).to.equal(true);
        expect(await limitSeenOver(kernel, 262144)).to.equal(262144);
      },
    );
  });

  it('fails start-up on an unparsable flag, naming it', async () => {
    let error: unknown;
    try {
      await startTestKernel({ configFile: structuredFixtureConfig(), env: { MCP_STRUCTURED_OUTPUT: 'yes please' } });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).to.contain('MCP_STRUCTURED_OUTPUT="yes please"');
  });
});
