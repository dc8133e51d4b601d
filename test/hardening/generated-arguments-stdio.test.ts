import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import fc from 'fast-check';
import { vendorCanaries } from '../support/canaries.js';
import { SchemaOracle } from '../support/call-oracle.js';
import {
  checkGeneratedCall,
  describeArgs,
  FuzzTally,
  generatedCall,
  hardeningRuns,
  replayable,
  withHangGuard,
  type GeneratedCall,
} from '../support/generated-calls.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import type { JsonSchema } from '../support/schema-arbitrary.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';
import { VendorMocks } from '../support/vendor-mocks.js';

/**
 * The arguments as the server receives them: the SDK rebuilds the `arguments` record when it parses a request,
 * and an own `__proto__` key does not survive that (assigning it sets a prototype instead). It never reaches
 * the server, so it cannot make the call invalid there, nor pollute anything.
 */
function asReceived(input: GeneratedCall): GeneratedCall {
  const args = input.args;
  if (typeof args !== 'object' || args === null || Array.isArray(args) || !Object.hasOwn(args, '__proto__')) return input;
  const copy = Object.fromEntries(Object.entries(args).filter(([key]) => key !== '__proto__'));
  return { ...input, args: copy };
}

/** What a JSON client can send at all (the deepest values overflow JSON.stringify; raw-JSON tests send those). */
function sendable(input: GeneratedCall): boolean {
  try {
    JSON.stringify(input.args);
    return true;
  } catch {
    return false;
  }
}

// 25 per tool in `npm test` (1,725 calls over stdio, beside the in-process suite's 13,800); the long lane makes 1,000.
const RUNS = hardeningRuns('HARDENING_STDIO_RUNS', 25);

describe(`hardening: ${RUNS} generated argument objects per tool over stdio (dist/cli.js, official SDK client)`, function () {
  this.timeout(0);
  let mocks: VendorMocks;
  let session: StdioSession;
  let tools: Array<{ name: string; inputSchema: JsonSchema }>;
  let oracle: SchemaOracle;
  const tally = new FuzzTally();

  before(async () => {
    mocks = await VendorMocks.start(vendorCanaries());
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-fuzz-stdio-'));
    leakAudit.watchPath(cwd);
    session = await connectStdio({
      cwd,
      env: { ...mocks.env(), MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '16384', MCP_AUDIT_LOG: join(cwd, 'audit.jsonl') },
    });
    tools = (await session.client.listTools()).tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema as JsonSchema }));
    oracle = new SchemaOracle(tools);
  });
  after(async () => {
    process.stdout.write(tally.report('stdio'));
    await session?.close();
    for (const line of session?.stderr ?? []) leakAudit.transcript('stdio server stderr', line);
    await mocks?.close();
  });

  it('every tool: a usable result, a clear error, or (for arguments that are not an object) a JSON-RPC invalid-params error', async () => {
    expect(tools.length).to.be.greaterThan(20);
    for (const tool of tools) {
      await fc.assert(
        fc.asyncProperty(generatedCall(tool.inputSchema, new URL(mocks.evil.url).host).filter(sendable), async (input) => {
          mocks.reset();
          const call = session.client.callTool({ name: tool.name, arguments: input.args as Record<string, unknown> }) as Promise<CallToolResult>;
          const outcome = await withHangGuard(
            call.then(
              (result) => ({ result }),
              (error: unknown) => ({ error }),
            ),
            tool.name,
          );
          if ('error' in outcome) {
            // The protocol itself requires an object: anything else is refused before the tool runs.
            const isObject = typeof input.args === 'object' && input.args !== null && !Array.isArray(input.args);
            expect(isObject, `${tool.name} with ${describeArgs(input)}: ${String(outcome.error)}`).to.equal(false);
            expect(outcome.error).to.be.instanceOf(ProtocolError);
            expect((outcome.error as ProtocolError).code).to.equal(ProtocolErrorCode.InvalidParams);
            expect(mocks.requestCount()).to.equal(0);
            tally.add(tool.name, false, 'json-rpc -32602');
            return;
          }
          leakAudit.transcript(`stdio result of ${tool.name}`, JSON.stringify(outcome.result));
          checkGeneratedCall({ tool: tool.name, input: asReceived(input), result: outcome.result, oracle, requests: mocks.requestCount(), tally });
          mocks.expectEveryRequestInBounds();
        }),
        replayable(RUNS),
      );
    }
  });

  it('still answers afterwards, and logged nothing but JSON lines to stderr', async () => {
    mocks.reset();
    const result = (await session.client.callTool({ name: 'bb_get', arguments: { path: '/repositories/acme/app', outputFormat: 'json' } })) as CallToolResult;
    expect(result.isError).to.equal(undefined);
    expect(mocks.vendors.bitbucket.mock.requests.map((r) => r.path)).to.deep.equal(['/2.0/repositories/acme/app']);
    for (const line of session.stderr) expect(() => JSON.parse(line), line.slice(0, 200)).not.to.throw();
  });
});
