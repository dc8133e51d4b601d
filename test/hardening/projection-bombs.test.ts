import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import Type from 'typebox';
import type { ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { auditLines } from '../support/audit-records.js';
import { tempFile } from '../support/enterprise-fixture.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { projectionBombs, sharedValue } from '../support/projection-bombs.js';

/** The review's body: about 100 bytes. */
const BODY = { id: 1296269, name: 'app', full_name: 'acme/app', private: false, owner: { login: 'acme', id: 1 } };
const pipes = (n: number): string => Array(n).fill('[@,@]').join(' | ');

describe('hardening: projection bombs are stopped, reported with their own code and audited', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  let audit: string;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', '/repo', { body: BODY });
    audit = tempFile('audit.jsonl', '');
    kernel = await startTestKernel({
      configFile: fixtureConfig(),
      env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'bomb-token-0a1b2c', MCP_AUDIT_LOG: audit, MCP_STRUCTURED_OUTPUT: 'true' },
    });
  });
  after(async () => {
    await kernel?.close();
    await mock?.close();
  });

  it("the body is the review's 100-byte one", () => {
    expect(JSON.stringify(BODY).length).to.be.within(90, 110);
  });

  for (const n of [19, 22, 40]) {
    it(`stops "[@,@] | ..." with ${n} pipes as projection_too_large (it used to stall the server, or kill it at 4.4 GB)`, async () => {
      const result = await kernel.call('fixture_get', { path: '/repo', jq: pipes(n) });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.equal(
        'Error: The jq expression was stopped: it would produce more than 1 MiB of data (the larger of 1 MiB and 2 times the response). ' +
          'Select less: pick fields rather than repeat values (`[@,@]` doubles the data at each step).\nCode: projection_too_large',
      );
      expect(result.structuredContent).to.equal(undefined);
    });
  }

  it('stops every kind of bomb in the corpus, and audits each stopped call with its code', async () => {
    const before = auditLines(audit).length;
    const bombs = projectionBombs();
    for (const jq of bombs) {
      const text = textOf(await kernel.call('fixture_get', { path: '/repo', jq }));
      expect(text, jq).to.match(/\nCode: projection_too_large$/);
    }
    const records = auditLines(audit).slice(before);
    expect(records.map((r) => [r.tool, r.outcome])).to.deep.equal(bombs.map(() => ['fixture_get', { status: 'error', code: 'projection_too_large' }]));
  });

  it('leaves ordinary projections, and growth within the budget, as they were', async () => {
    expect(textOf(await kernel.call('fixture_get', { path: '/repo', jq: '{n: name, o: owner.login}' }))).to.equal('n: app\no: acme');
    expect(JSON.parse(textOf(await kernel.call('fixture_get', { path: '/repo', jq: `${pipes(3)} | length(@)`, outputFormat: 'json' })))).to.equal(2);
    const grown = await kernel.call('fixture_get', { path: '/repo', jq: pipes(10), outputFormat: 'json' });
    expect(grown.isError).to.equal(undefined);
  });

  it('refuses an expression longer than 2,000 characters as invalid_jq, before evaluating it', async () => {
    const jq = `name${' || name'.repeat(300)}`;
    expect(textOf(await kernel.call('fixture_get', { path: '/repo', jq }))).to.equal(
      `Error: The jq expression is ${jq.length} characters long; the limit is 2000. Select fewer fields, or split the projection into simpler ones.\nCode: invalid_jq`,
    );
    expect(textOf(await kernel.call('fixture_get', { path: '/repo', jq: `name${' || name'.repeat(199)}` }))).to.equal('app');
  });

  it('answers an expression that is merely wrong with the error and where to look, not the data: {_jqError, reason, nearestPaths, topLevelKeys}', async () => {
    const text = textOf(await kernel.call('fixture_get', { path: '/repo', jq: '[', outputFormat: 'json' }));
    expect(text).to.contain('"_jqError": "Invalid JMESPath expression: ["');
    expect(text).not.to.contain('_originalData');
  });

  it('documents invalid_jq as what a bad expression really gives: the long one an error, the broken one a retryable result', async () => {
    const row =
      readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8')
        .split('\n')
        .find((line) => line.startsWith('| `invalid_jq` |')) ?? '';
    const long = await kernel.call('fixture_get', { path: '/repo', jq: `name${' || name'.repeat(300)}` });
    const broken = await kernel.call('fixture_get', { path: '/repo', jq: 'name[?', outputFormat: 'json' });
    expect([long.isError, textOf(long).endsWith('Code: invalid_jq')]).to.deep.equal([true, true]);
    expect(row).to.contain('longer than 2,000 characters');
    expect(broken.isError).to.equal(undefined);
    expect(Object.keys(JSON.parse(textOf(broken)))).to.deep.equal(['_jqError', 'reason', 'nearestPaths', 'topLevelKeys']);
    expect(row).to.contain('{_jqError, reason, nearestPaths, topLevelKeys}');
    expect(row).to.contain('{_jqError, _originalData} on the Atlassian passthroughs');
  });

  it('answers other calls afterwards', async () => {
    expect(textOf(await kernel.call('fixture_get', { path: '/repo', jq: 'full_name' }))).to.equal('acme/app');
  });
});

@Plugin({ name: 'sharing', version: '1.0.0' })
class SharingPlugin {
  @Tool({
    name: 'sharing_get',
    title: 'Shared parts',
    description: 'Returns a value whose parts are shared.',
    annotations: { readOnlyHint: true },
    input: Type.Object({ depth: Type.Integer(), ...renderingArgs }),
  })
  async get(ctx: { args: { depth: number } }): Promise<ToolOutput> {
    return { value: sharedValue(ctx.args.depth) };
  }
}

describe('hardening: what rendering may walk is bounded too (a value with shared parts, from a plugin)', () => {
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestKernel({ plugins: [SharingPlugin], env: { MCP_MAX_RESPONSE_BYTES: '1048576' } });
  });
  after(() => kernel?.close());

  it('refuses a value that would render to more nodes than any response could hold, naming the plugin', async () => {
    for (const outputFormat of ['toon', 'json']) {
      const text = textOf(await kernel.call('sharing_get', { depth: 50, outputFormat }));
      expect(text).to.equal(
        'Error: The sharing plugin failed while running sharing_get: it returned a value of more than 1049600 nodes (a part shared by reference counts each time it appears), more than any response it may read can hold\nCode: tool_failed',
      );
    }
  });

  it('renders such a value while it stays within the bound, and the same projection budget applies to jq on it', async () => {
    expect(textOf(await kernel.call('sharing_get', { depth: 3, outputFormat: 'json' }))).to.contain('"leaf"');
    expect(textOf(await kernel.call('sharing_get', { depth: 15, jq: '[@,@] | [@,@]' }))).to.match(/Code: projection_too_large$/);
  });
});
