import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { GOLDEN_DIR, goldenSnapshots, type Snapshots } from './golden-snapshots.js';

/**
 * With structured output off, tools/list and results must not change without review: any change to what a
 * client sees shows up here, and `npm run golden:update` records it on purpose.
 */
describe('golden files: tools/list and results with structured output off', () => {
  let now: Snapshots;

  before(async () => {
    now = await goldenSnapshots();
  });

  // pipeline-chains.json: each built-in tool's stage middleware and interceptors, in order (core/pipeline/pipeline.ts).
  for (const name of ['tools-list.json', 'results.json', 'pipeline-chains.json']) {
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

  it('pins no structured output: no outputSchema, no structuredContent', () => {
    expect(now['tools-list.json']).not.to.contain('outputSchema');
    expect(now['results.json']).not.to.contain('structuredContent');
  });
});
