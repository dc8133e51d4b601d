import { expect } from 'chai';
import { readToolSpecs } from '../../core/plugin/metadata.js';
import { CROSS_CUTTING, VENDORS } from '../../server/bootstrap/builtin-plugins.js';

// A built-in tool is declared in one place: a defineTool value (name, schemas, route and handler together) listed
// in its plugin's @Plugin({ tools }), never a decorated method forwarding to a handler elsewhere.
describe('built-in plugins declare each tool as one value', () => {
  for (const [name, load] of Object.entries({ ...CROSS_CUTTING, ...VENDORS })) {
    it(`${name}: no @Tool method, and a handler beside every spec`, async () => {
      const tools = readToolSpecs(await load());
      expect(tools.filter((tool) => tool.method !== undefined).map((tool) => tool.spec.name)).to.deep.equal([]);
      for (const tool of tools) expect(typeof tool.handler, tool.spec.name).to.equal('function');
    });
  }
});
