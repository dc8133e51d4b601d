// A handler whose value or meta breaks the envelope it declares: the official SDK client, with structured
// output on, gets an error result naming the plugin and tool (never structured content that fails its own
// outputSchema, which the client would answer with -32602), and the server logs what is wrong.
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { PagedEnvelope, Plugin, Tool, Type, type ToolOutput } from 'mcp-devtools/plugin';
import { startTestKernel, type TestKernel } from 'mcp-devtools/testing';

const NoArgs = Type.Object({}, { additionalProperties: false });
const READ = { readOnlyHint: true };
type Paged = ToolOutput<typeof PagedEnvelope>;

@Plugin({ name: 'pager', version: '1.0.0' })
class PagerPlugin {
  @Tool({
    name: 'pager_cursor_in_paged',
    title: 'Cursor',
    description: 'Says nextPage is a cursor.',
    annotations: READ,
    input: NoArgs,
    envelope: PagedEnvelope,
  })
  // The typed API makes this a compile error; a plugin in plain JavaScript, or one that casts, still gets here.
  async cursor(): Promise<Paged> {
    return { value: [{ id: 1 }], meta: { nextPage: 'cursor-abc' } } as unknown as Paged;
  }

  @Tool({
    name: 'pager_extra_meta',
    title: 'Extra',
    description: 'Adds meta the envelope does not have.',
    annotations: READ,
    input: NoArgs,
    envelope: PagedEnvelope,
  })
  async extra(): Promise<Paged> {
    return { value: [{ id: 1 }], meta: { nextPage: 2, total: 40 } } as unknown as Paged;
  }

  @Tool({ name: 'pager_ok', title: 'OK', description: 'Pages as declared.', annotations: READ, input: NoArgs, envelope: PagedEnvelope })
  async ok(): Promise<Paged> {
    return { value: [{ id: 1 }], meta: { nextPage: 2 } };
  }
}

describe('public API: a result that breaks its envelope never reaches the wire', () => {
  let kernel: TestKernel;
  let client: Client;

  before(async () => {
    kernel = await startTestKernel({ plugins: [PagerPlugin], env: { MCP_STRUCTURED_OUTPUT: 'true' } });
    client = await kernel.connect();
  });
  after(async () => kernel.close());

  const call = async (name: string): Promise<CallToolResult> => (await client.callTool({ name, arguments: {} })) as CallToolResult;
  const text = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

  it('turns meta {nextPage: "cursor-abc"} under PagedEnvelope into tool_failed naming the plugin and tool, with no structured content', async () => {
    const result = await call('pager_cursor_in_paged');
    expect(result.isError).to.equal(true);
    expect(result.structuredContent).to.equal(undefined);
    expect(text(result)).to.match(
      /^Error: The pager plugin failed while running pager_cursor_in_paged: its result does not satisfy the tool's envelope \(\/nextPage must be integer; .*\), so it was not sent\./,
    );
    expect(text(result)).to.contain('Code: tool_failed');
    const logged = kernel.logs
      .map((l) => JSON.parse(l) as { msg: string; plugin?: string; tool?: string; problems?: string[] })
      .find((l) => l.msg === 'tool result does not satisfy its envelope' && l.tool === 'pager_cursor_in_paged');
    expect(logged).to.deep.include({ plugin: 'pager', tool: 'pager_cursor_in_paged' });
    expect(logged?.problems?.[0]).to.equal('/nextPage must be integer');
  });

  it('refuses meta the envelope does not declare', async () => {
    const result = await call('pager_extra_meta');
    expect(result.isError).to.equal(true);
    expect(text(result)).to.contain("its result does not satisfy the tool's envelope (/total schema is false; / must not have additional properties)");
  });

  it('sends a result that satisfies its envelope as structured content', async () => {
    const result = await call('pager_ok');
    expect(result.isError).to.equal(undefined);
    expect(result.structuredContent).to.deep.equal({ data: [{ id: 1 }], nextPage: 2 });
  });
});

describe('public API: meta is checked against the envelope with structured output off too', () => {
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestKernel({ plugins: [PagerPlugin], env: { MCP_STRUCTURED_OUTPUT: 'false' } });
  });
  after(async () => kernel.close());

  const text = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

  it('ends a call whose meta breaks the envelope with tool_failed naming the plugin and tool, though no structured content is made', async () => {
    const result = await kernel.call('pager_cursor_in_paged');
    expect(result.isError).to.equal(true);
    expect(result.structuredContent).to.equal(undefined);
    expect(text(result)).to.match(
      /^Error: The pager plugin failed while running pager_cursor_in_paged: its result does not satisfy the tool's envelope \(\/nextPage must be integer; .*\), so it was not sent\./,
    );
  });

  it('refuses meta the envelope does not declare', async () => {
    expect(text(await kernel.call('pager_extra_meta'))).to.contain("its result does not satisfy the tool's envelope (/total schema is false");
  });

  it('shows a result that satisfies its envelope as text, meta first', async () => {
    const result = await kernel.call('pager_ok');
    expect(result.isError).to.equal(undefined);
    expect(result.structuredContent).to.equal(undefined);
    expect(text(result)).to.equal('nextPage: 2\ndata[1]{id}:\n  1');
  });
});
