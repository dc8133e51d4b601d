import { expect } from 'chai';
import { connectStdio } from '../support/sdk-client.js';

// A property the schema both requires and defaults makes a model send what the server would have filled in
// (perPage, page and tailLines were such, thirteen in all): no tool advertises one (issue 41).
describe('advertised input schemas (every tool, dist/cli.js over stdio)', () => {
  it('require no property that has a default', async () => {
    const session = await connectStdio({ args: ['--toolsets', 'all'] });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.length).to.be.above(60);
      const both = tools.flatMap((tool) => {
        const schema = tool.inputSchema as { required?: string[]; properties?: Record<string, { default?: unknown }> };
        return (schema.required ?? []).filter((name) => schema.properties?.[name]?.default !== undefined).map((name) => `${tool.name}.${name}`);
      });
      expect(both).to.deep.equal([]);
    } finally {
      await session.close();
    }
  });
});
