// A third-party plugin that fails at call time, through the public API: every failure is an error result
// the model can read, and no failure affects other calls. The kernel here is the bundled one (dist/), so
// the plugins below that use the tsc-compiled copy of the sources stand for plugins built against another
// copy of mcp-devtools.
import { expect } from 'chai';
import { inject, Plugin, Tool, TOKENS, ToolError, Type, type Settings, type ToolContext, type ToolOutput } from 'mcp-devtools/plugin';
import { startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';
import { ToolError as OtherCopyToolError } from '../../core/errors/tool-error.js';
import { Plugin as OtherCopyPlugin, Tool as OtherCopyTool } from '../../core/plugin/decorators.js';

const NoArgs = Type.Object({}, { additionalProperties: false });
const readOnly = { readOnlyHint: true };

@Plugin({ name: 'acme', version: '1.0.0', settings: Type.Object({ ACME_GREETING: Type.String({ default: 'hello' }) }) })
class AcmePlugin {
  constructor(@inject(TOKENS.Settings) private readonly settings: Settings) {}

  @Tool({ name: 'acme_ok', title: 'OK', description: 'Answers.', annotations: readOnly, input: NoArgs })
  async ok(): Promise<ToolOutput> {
    return { value: { greeting: this.settings.get<string>('ACME_GREETING') } };
  }

  @Tool({ name: 'acme_crash', title: 'Crash', description: 'Has a bug.', annotations: readOnly, input: NoArgs })
  async crash(): Promise<ToolOutput> {
    const list = undefined as unknown as string[];
    return { value: list.length };
  }

  @Tool({ name: 'acme_forgot', title: 'Forgot', description: 'Forgets to return.', annotations: readOnly, input: NoArgs })
  async forgot(_ctx: ToolContext<typeof NoArgs, undefined>): Promise<ToolOutput> {
    return undefined as unknown as ToolOutput;
  }

  @Tool({ name: 'acme_teapot', title: 'Teapot', description: 'Ends with a ToolError.', annotations: readOnly, input: NoArgs })
  async teapot(): Promise<ToolOutput> {
    throw new ToolError('upstream_http_error', 'Acme answered 418 for GET /brew. Use a coffee machine.', {
      status: 418,
      upstreamBody: '{"error":"I am a teapot"}',
    });
  }
}

@OtherCopyPlugin({ name: 'acme-legacy', version: '0.9.0' })
class AcmeLegacyPlugin {
  @OtherCopyTool({ name: 'acme_legacy_ok', title: 'Legacy OK', description: 'Answers.', annotations: readOnly, input: NoArgs })
  async ok(): Promise<ToolOutput> {
    return { value: 'legacy answers' };
  }

  @OtherCopyTool({ name: 'acme_legacy_limited', title: 'Legacy limited', description: 'Rate-limited.', annotations: readOnly, input: NoArgs })
  async limited(): Promise<ToolOutput> {
    throw new OtherCopyToolError('upstream_rate_limited', 'Acme answered 429: rate limit exceeded. Retry after 30 seconds.', {
      status: 429,
      retryAfterSeconds: 30,
      meta: { acme: 'limited' },
    });
  }
}

describe('public API: a plugin that fails at call time', () => {
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestKernel({ plugins: [AcmePlugin, AcmeLegacyPlugin], env: { ACME_GREETING: 'hi' } });
  });
  after(async () => kernel.close());

  it('turns a thrown bug into a tool_failed result that names the plugin and tool, without a stack trace', async () => {
    const result = await kernel.call('acme_crash');
    expect(result.isError).to.equal(true);
    const text = textOf(result);
    expect(text).to.match(/^Error: The acme plugin failed while running acme_crash: Cannot read properties of undefined/);
    expect(text).to.contain('Code: tool_failed');
    expect(text).not.to.contain('    at ');
    const logged = kernel.logs.map((l) => JSON.parse(l) as { msg: string; plugin?: string; tool?: string }).find((l) => l.msg === 'tool handler failed');
    expect(logged).to.deep.include({ plugin: 'acme', tool: 'acme_crash' });
  });

  it('says what a handler must return when it returns nothing', async () => {
    const text = textOf(await kernel.call('acme_forgot'));
    expect(text).to.contain('The acme plugin failed while running acme_forgot: the handler returned undefined instead of a ToolOutput ({ value } or { text })');
  });

  it('keeps the code, status and upstream body of a ToolError', async () => {
    const result = await kernel.call('acme_teapot');
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.equal(
      'Error: Acme answered 418 for GET /brew. Use a coffee machine.\nCode: upstream_http_error\nHTTP Status: 418\n\nRaw API Response:\n{\n  "error": "I am a teapot"\n}',
    );
  });

  it('recognises a ToolError made by another copy of mcp-devtools, with its _meta', async () => {
    const result = await kernel.call('acme_legacy_limited');
    expect(textOf(result)).to.equal(
      'Error: Acme answered 429: rate limit exceeded. Retry after 30 seconds.\nCode: upstream_rate_limited\nHTTP Status: 429\nRetry After: 30 seconds',
    );
    expect(result._meta).to.deep.equal({ acme: 'limited' });
  });

  it('loads a plugin decorated by another copy of mcp-devtools', async () => {
    expect(textOf(await kernel.call('acme_legacy_ok'))).to.equal('legacy answers');
  });

  it('does not affect calls running at the same time, nor later ones', async () => {
    const names = ['acme_crash', 'acme_ok', 'acme_teapot', 'acme_ok', 'acme_forgot', 'acme_legacy_ok', 'acme_crash', 'acme_ok'];
    const results = await Promise.all(names.map((name) => kernel.call(name)));
    results.forEach((result, i) => {
      const failing = ['acme_crash', 'acme_teapot', 'acme_forgot'].includes(names[i]!);
      expect(result.isError === true, `${names[i]}: ${textOf(result)}`).to.equal(failing);
    });
    expect(textOf(await kernel.call('acme_ok'))).to.equal('greeting: hi');
  });

  it('answers over the SDK client with error results, never protocol errors, and keeps serving', async () => {
    const client = await kernel.connect();
    const crashed = await client.callTool({ name: 'acme_crash', arguments: {} });
    expect(crashed.isError).to.equal(true);
    const answered = await client.callTool({ name: 'acme_ok', arguments: {} });
    expect(answered.content).to.deep.equal([{ type: 'text', text: 'greeting: hi' }]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['acme_ok', 'acme_crash', 'acme_legacy_ok']);
  });
});
