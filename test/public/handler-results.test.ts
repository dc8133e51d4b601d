// What a handler returns that is not a JSON value, or not a ToolOutput at all, through the public kit as an
// outside author writes it (issue 55, item 5): each ends the call with an error result naming the plugin and
// the tool and saying what to return, never an OK result whose text is `null` or `{}`. The calls around it
// are unaffected.
import { expect } from 'chai';
import { defineTool, Plugin, READ, Type, type ToolOutput } from 'mcp-devtools/plugin';
import { startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';

const NoArgs = Type.Object({}, { additionalProperties: false });

/** A tool of the `acme` plugin that returns `output`, whatever its type says. */
const returning = (name: string, output: () => unknown) =>
  defineTool({
    name,
    title: name,
    description: `Returns what ${name} returns.`,
    annotations: READ,
    input: NoArgs,
    handler: async () => output() as ToolOutput,
  });

const circular = (): unknown => {
  const issue: Record<string, unknown> = { key: 'ACME-1' };
  issue.self = { parent: issue };
  return issue;
};

@Plugin({
  name: 'acme',
  version: '1.0.0',
  tools: [
    returning('acme_ok', () => ({ value: { key: 'ACME-1', created: new Date(Date.UTC(2026, 0, 2)) } })),
    returning('acme_body', () => ({ key: 'ACME-1', summary: 'Returned the body instead of { value: body }' })),
    returning('acme_promise', () => ({ value: Promise.resolve({ key: 'ACME-1' }) })),
    returning('acme_map', () => ({ value: new Map([['ACME-1', 'open']]) })),
    returning('acme_set_in_meta', () => ({ value: [], meta: { seen: new Set(['ACME-1']) } })),
    returning('acme_bigint', () => ({ value: { id: 12345678901234567890n } })),
    returning('acme_circular', () => ({ value: circular() })),
    returning('acme_function', () => ({ value: { key: 'ACME-1', toString: () => 'ACME-1' } })),
  ],
})
class AcmePlugin {}

describe('public API: a handler result that is not a JSON value ends the call with an error naming the plugin and tool', () => {
  let kernel: TestKernel;
  before(async () => {
    kernel = await startTestKernel({ plugins: [AcmePlugin], env: { MCP_STRUCTURED_OUTPUT: 'true' } });
  });
  after(() => kernel.close());

  const failure = async (tool: string): Promise<string> => {
    const result = await kernel.call(tool, {});
    expect(result.isError, `${tool} answered OK: ${JSON.stringify(result.content)}`).to.equal(true);
    expect(result.structuredContent).to.equal(undefined);
    const text = textOf(result);
    expect(text).to.contain('Code: tool_failed');
    expect(text).to.contain(`The acme plugin failed while running ${tool}`);
    return text;
  };

  it('serves a plain JSON value, a Date rendered as JSON renders it (the control)', async () => {
    const result = await kernel.call('acme_ok', {});
    expect(result.isError).to.not.equal(true);
    expect(textOf(result)).to.contain('2026-01-02T00:00:00.000Z');
  });

  it('a result without value or text: says to return { value } and names the keys it returned', async () => {
    const text = await failure('acme_body');
    expect(text).to.contain('it returned an object without value or text (keys: key, summary)');
    expect(text).to.contain('return { value: body }');
  });

  it('a Promise as the value: says to await it', async () => {
    expect(await failure('acme_promise')).to.contain('value is a Promise: await it');
  });

  it('a Map as the value, a Set in meta: names the part and the type, and what JSON can hold', async () => {
    expect(await failure('acme_map')).to.contain('value is a Map, which JSON cannot hold');
    expect(await failure('acme_set_in_meta')).to.contain('meta.seen is a Set, which JSON cannot hold');
  });

  it('a BigInt: names where it is and says to return a string or number', async () => {
    expect(await failure('acme_bigint')).to.contain('value.id is a BigInt, which JSON cannot hold: return it as a string');
  });

  it('a circular value: says it refers to itself and where', async () => {
    expect(await failure('acme_circular')).to.contain('value.self.parent refers back to value, a circular value JSON cannot hold');
  });

  it('a function inside the value: names it rather than dropping it silently', async () => {
    expect(await failure('acme_function')).to.contain('value.toString is a function, which JSON cannot hold');
  });

  it('logs the failure with the plugin and tool, and the next call is served', async () => {
    await kernel.call('acme_map', {});
    const line = kernel.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'tool handler failed' && l.tool === 'acme_map');
    expect(line).to.include({ plugin: 'acme' });
    expect((await kernel.call('acme_ok', {})).isError).to.not.equal(true);
  });
});
