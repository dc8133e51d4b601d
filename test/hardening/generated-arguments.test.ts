import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import fc from 'fast-check';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { vendorCanaries } from '../support/canaries.js';
import { SchemaOracle } from '../support/call-oracle.js';
import { checkGeneratedCall, FuzzTally, generatedCall, hardeningRuns, replayable, withHangGuard } from '../support/generated-calls.js';
import type { JsonSchema } from '../support/schema-arbitrary.js';
import { VendorMocks } from '../support/vendor-mocks.js';

/** `all` and code mode's toolset, which `all` leaves out: every built-in tool. */
const EVERY_TOOLSET = { MCP_TOOLSETS: 'all,code' };

/** Every built-in tool, as tools/list shows it with every vendor loaded (listed before the tests are defined). */
const TOOLS = await (async () => {
  const kernel = await startTestKernel({ env: EVERY_TOOLSET });
  try {
    return kernel.kernel.listTools().map((t) => ({ name: t.name, inputSchema: t.inputSchema as JsonSchema }));
  } finally {
    await kernel.close();
  }
})();

// 200 per tool in `npm test`: 13,800 generated calls over the 69 tools, sized so the whole suite keeps to its time
// budget on 2 cores (issue 50). The long lane (npm run test:hardening:long) makes 20,000 per tool, and
// HARDENING_RUNS sets any size.
const RUNS = hardeningRuns('HARDENING_RUNS', 200);

describe(`hardening: ${RUNS} generated argument objects per tool, in-process (fast-check)`, function () {
  this.timeout(0);
  let mocks: VendorMocks;
  let kernel: TestKernel;
  let client: Client;
  let oracle: SchemaOracle;
  const tally = new FuzzTally();

  before(async () => {
    mocks = await VendorMocks.start(vendorCanaries());
    const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-fuzz-'));
    // Structured output with the smallest bound, and an audit log: every stage sees the generated input.
    kernel = await startTestKernel({
      cwd: dir,
      env: { ...EVERY_TOOLSET, ...mocks.env(), MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '16384', MCP_AUDIT_LOG: join(dir, 'audit.jsonl') },
    });
    client = await kernel.connect();
    oracle = new SchemaOracle((await client.listTools()).tools);
  });
  after(async () => {
    process.stdout.write(tally.report('in-process'));
    await kernel?.close();
    await mocks?.close();
  });

  it('lists exactly the tools these tests generate arguments for', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal(TOOLS.map((t) => t.name));
  });

  for (const tool of TOOLS) {
    it(`${tool.name}: every call ends in a usable result or a clear error, and nothing leaves its vendor's API`, async () => {
      await fc.assert(
        fc.asyncProperty(generatedCall(tool.inputSchema, new URL(mocks.evil.url).host), async (input) => {
          mocks.reset();
          const result = await withHangGuard(kernel.call(tool.name, input.args as Record<string, unknown>), tool.name);
          checkGeneratedCall({ tool: tool.name, input, result, oracle, requests: mocks.requestCount(), tally });
          mocks.expectEveryRequestInBounds();
        }),
        replayable(RUNS),
      );
    });
  }

  it('still answers afterwards: tools/list, and a plain call that reaches the vendor', async () => {
    mocks.reset();
    expect((await client.listTools()).tools).to.have.length(TOOLS.length);
    const result = await kernel.call('github_get', { path: '/repos/acme/app', outputFormat: 'json' });
    expect(JSON.parse(textOf(result))).to.deep.include({ ok: true, path: '/repos/acme/app' });
  });
});
