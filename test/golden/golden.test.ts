import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { GOLDEN_DIR, goldenSnapshots, type Snapshots } from './golden-snapshots.js';

/**
 * tools/list and results must not change without review: any change to what a client sees shows up here, and
 * `npm run golden:update` records it on purpose. In-process with structured output off; on the wire, in each
 * protocol era, with it on.
 */
describe('golden files: tools/list and results, in-process and on the wire of both eras', () => {
  let now: Snapshots;

  before(async () => {
    now = await goldenSnapshots();
  });

  // pipeline-chains.json: each built-in tool's stage middleware and interceptors, in order (core/pipeline/pipeline.ts).
  for (const name of [
    'tools-list.json',
    'tools-list-2026-07-28.json',
    'results.json',
    'wire-2025-11-25.json',
    'wire-2026-07-28.json',
    'pipeline-chains.json',
  ]) {
    it(`${name} matches the reviewed snapshot`, () => {
      const file = join(GOLDEN_DIR, name);
      expect(existsSync(file), `${file} is missing: run npm run golden:update`).to.equal(true);
      const reviewed = readFileSync(file, 'utf8');
      if (now[name] !== reviewed) {
        // A readable diff first, then the exact comparison.
        expect(JSON.parse(now[name]!), `${name} changed: review it, then run npm run golden:update`).to.deep.equal(JSON.parse(reviewed));
      }
      expect(now[name], `${name} changed byte-wise (key order or formatting): run npm run golden:update after review`).to.equal(reviewed);
    });
  }

  // call-order.txt: jira_get's whole order, transport to answer, every part on (core/pipeline/pipeline.ts).
  it('call-order.txt matches the reviewed order of one jira_get', () => {
    const file = join(GOLDEN_DIR, 'call-order.txt');
    expect(existsSync(file), `${file} is missing: run npm run golden:update`).to.equal(true);
    expect(now['call-order.txt'], 'the order of a call changed: review it, then run npm run golden:update').to.equal(readFileSync(file, 'utf8'));
  });

  it('pins no structured output with the flag off: no outputSchema, no structuredContent', () => {
    expect(now['tools-list.json']).not.to.contain('outputSchema');
    expect(now['results.json']).not.to.contain('structuredContent');
  });

  it('lists every built-in tool in both eras; under 2026-07-28 the read tools declare object-rooted envelopes', () => {
    type Listed = { tools: Array<{ name: string; outputSchema?: { type?: unknown } }> };
    const legacy = JSON.parse(now['tools-list.json']!) as Listed;
    const modern = JSON.parse(now['tools-list-2026-07-28.json']!) as Listed;
    expect(modern.tools.map((t) => t.name)).to.deep.equal(legacy.tools.map((t) => t.name));
    expect(legacy.tools.map((t) => t.name)).to.include.members(['bb_upload', 'jira_get_attachment', 'github_get_pull_request_diff', 'github_get_file']);
    const declaring = modern.tools.filter((t) => t.outputSchema !== undefined);
    expect(declaring.map((t) => t.name)).to.include.members([
      'github_list_pull_requests',
      'github_get_issue',
      'circleci_get',
      'jira_get',
      'conf_get',
      'bb_get',
      'bb_upload',
    ]);
    expect(declaring.filter((t) => t.outputSchema!.type !== 'object').map((t) => t.name)).to.deep.equal([]);
  });

  it('pins each era as its revision says: the array-rooted schema and value for 2026-07-28 only', () => {
    const arrayTool = (era: string): { outputSchema?: unknown } =>
      (JSON.parse(now[`wire-${era}.json`]!) as { tools: { result: { tools: Array<{ name: string; outputSchema?: unknown }> } } }).tools.result.tools.find(
        (t) => t.name === 'faulty_array_root',
      )!;
    expect(arrayTool('2025-11-25')).not.to.have.property('outputSchema');
    expect(arrayTool('2026-07-28').outputSchema).to.deep.equal({ type: 'array', items: { type: 'integer' } });
    expect(now['wire-2025-11-25.json']).not.to.contain('resultType');
    expect(now['wire-2026-07-28.json']).to.contain('"resultType": "complete"');
  });
});
