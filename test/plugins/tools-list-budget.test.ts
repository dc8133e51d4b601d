import { expect } from 'chai';
import { measureToolsList, TOOLS_LIST_CONFIGURATIONS } from '../bench/tools-list-tokens.js';

// Every tool's definition is read by the model before anything else: each way of serving tools has a token
// budget (issue 41), counted with o200k_base on the tools/list result of the built server, structured output off.
// A budget on tokens is a budget on what the server sends, not on the machine: it belongs in npm test.
describe('tools/list token budgets (dist/cli.js over stdio, o200k_base)', () => {
  for (const { label, args, budget } of TOOLS_LIST_CONFIGURATIONS) {
    it(`${label} (${args.join(' ') || 'no selection'}) stays at or under ${budget} tokens`, async () => {
      const size = await measureToolsList(false, args);
      const largest = size.perTool
        .slice(0, 6)
        .map((t) => `${t.name} ${t.tokens}`)
        .join(', ');
      expect(size.tokens, `tools/list is ${size.tokens} tokens (${size.tools} tools); largest: ${largest}`).to.be.at.most(budget);
      if (args.includes('--dynamic-toolsets') || args.includes('--code-mode')) expect(size.tools).to.equal(3);
      else expect(size.tools).to.be.above(35);
    });
  }
});
