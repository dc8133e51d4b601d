// mcp-devtools passes the MCP Inspector's `--strict` schema checks (issue 55, item 6). The Inspector asks for a
// Node.js this machine may not have (22.19), so its check is reproduced (test/support/strict-tool-schema.ts) and
// run over what its `tools/list` sees: the tools the server serves by default (as the README's Inspector command
// runs it), then every tool (--toolsets all), through the official SDK client.
import { expect } from 'chai';
import { startTestKernel, type TestKernel } from 'mcp-devtools/testing';
import { strictInputSchemaProblems, strictSchemaProblems } from '../support/strict-tool-schema.js';
import { EVERY_VENDOR_CREDENTIALS } from '../support/every-vendor-credentials.js';

async function listedProblems(env: Record<string, string>): Promise<{ tools: string[]; problems: Record<string, string[]> }> {
  const kernel: TestKernel = await startTestKernel({ env });
  try {
    const { tools } = await (await kernel.connect()).listTools();
    const problems = Object.fromEntries(
      tools.map((tool) => [tool.name, strictInputSchemaProblems(tool.inputSchema)] as const).filter(([, found]) => found.length > 0),
    );
    return { tools: tools.map((t) => t.name), problems };
  } finally {
    await kernel.close();
  }
}

describe("the MCP Inspector's --strict schema checks", () => {
  it('refuse what the Inspector refuses: an untyped schema, a bare boolean, a type list (the check itself)', () => {
    expect(strictSchemaProblems({ type: 'object', patternProperties: { '^.*$': {} } })).to.deep.equal(['/patternProperties/^.*$: no type ({})']);
    expect(strictSchemaProblems({ type: 'object', properties: { data: true } })).to.deep.equal([
      '/properties/data: a boolean schema (true); give a typed schema',
    ]);
    expect(strictSchemaProblems({ type: ['null', 'boolean'] })).to.deep.equal(['(root): type is a list (["null","boolean"]); use anyOf']);
    expect(
      strictSchemaProblems({ type: 'object', additionalProperties: false, properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }),
    ).to.deep.equal([]);
  });

  it('pass on every tool the server serves by default, jira_create_issue and jira_update_issue included', async () => {
    // Every vendor configured: the default set leaves out a vendor without credentials.
    const { tools, problems } = await listedProblems({ ...EVERY_VENDOR_CREDENTIALS });
    expect(tools).to.include.members(['jira_create_issue', 'jira_update_issue']);
    expect(problems).to.deep.equal({});
  });

  it('pass on every tool of every toolset', async () => {
    const { tools, problems } = await listedProblems({ MCP_TOOLSETS: 'all' });
    expect(tools.length).to.be.above(60);
    expect(problems).to.deep.equal({});
  });
});
