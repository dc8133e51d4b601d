import { expect } from 'chai';
import { measureToolsList, TOOLS_LIST_TOKEN_BUDGET } from '../bench/tools-list-tokens.js';

// Every tool's definition is read by the model before anything else: the whole list has a token budget.
describe('tools/list token budget (dist/cli.js over stdio, every tool, o200k_base)', () => {
  it(`stays at or under ${TOOLS_LIST_TOKEN_BUDGET} tokens with structured output off`, async () => {
    const size = await measureToolsList(false);
    expect(size.tools).to.be.at.least(35);
    const largest = size.perTool
      .slice(0, 8)
      .map((t) => `${t.name} ${t.tokens}`)
      .join(', ');
    expect(size.tokens, `tools/list is ${size.tokens} tokens (${size.bytes} bytes, ${size.tools} tools); largest: ${largest}`).to.be.at.most(
      TOOLS_LIST_TOKEN_BUDGET,
    );
  });
});
