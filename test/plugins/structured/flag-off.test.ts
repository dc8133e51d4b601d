import { expect } from 'chai';
import { startTestKernel } from '../../support/test-kernel.js';
import { GOLDEN_CALLS, goldenResults } from '../../golden/golden-snapshots.js';
import { structuredFixtureConfig } from './structured-fixtures.js';

async function toolsList(env: Record<string, string>, extra: Record<string, unknown> = {}): Promise<string> {
  const kernel = await startTestKernel({ configFile: structuredFixtureConfig(extra), env });
  try {
    return JSON.stringify(kernel.kernel.listTools('2025-11-25'));
  } finally {
    await kernel.close();
  }
}

describe('structured output off: byte-identical to a server without it; on: only structuredContent is added', () => {
  it('lists exactly the same tools, byte for byte, as a server with the structured plugin disabled', async () => {
    const off = await toolsList({});
    expect(off).to.equal(await toolsList({}, { disable: ['structured'] }));
    expect(off).not.to.contain('outputSchema');
  });

  it('answers every call byte for byte as a server with the structured plugin disabled', async () => {
    const off = await goldenResults({});
    const without = await goldenResults({}, { disable: ['structured'] });
    expect(off.map((r) => JSON.stringify(r))).to.deep.equal(without.map((r) => JSON.stringify(r)));
  });

  it('with the flag on, keeps content, isError and _meta of every result, and adds structuredContent to successes of schema tools only', async () => {
    const off = await goldenResults({});
    const on = await goldenResults({ MCP_STRUCTURED_OUTPUT: 'true' });
    const schemaTools = new Set(['fixture_list_runs', 'fixture_circle_get', 'fixture_atlassian_get', 'fixture_get', 'faulty_no_value', 'faulty_refused']);
    GOLDEN_CALLS.forEach(([tool], i) => {
      const [a, b] = [off[i]!.result, on[i]!.result];
      const where = `${tool} #${i}`;
      expect(b.content, where).to.deep.equal(a.content);
      expect(b.isError, where).to.equal(a.isError);
      expect(b._meta, where).to.deep.equal(a._meta);
      const { structuredContent, ...rest } = b;
      expect(JSON.stringify(rest), where).to.equal(JSON.stringify(a));
      expect(structuredContent !== undefined, where).to.equal(schemaTools.has(tool) && b.isError !== true);
    });
  });
});
