import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchProvenanceTokens, PROVENANCE_READS } from '../bench/provenance-tokens.js';
import { REPO_ROOT } from '../support/paths.js';

// The fence bench (npm run bench:provenance) measures what it says: each read answers its people's text, fenced
// with fences on and as written with them off, and docs/untrusted-content.md holds a row for each read. No
// assertion on the figures: they are the bench's to report, not npm test's to hold.

describe('the provenance token bench (test/bench/provenance-tokens.ts) and its table in docs/untrusted-content.md', function () {
  this.timeout(60_000);

  it('fences at least one untrusted string in every read, so each row measures a fence', async () => {
    const { rows } = await benchProvenanceTokens(1);
    expect(rows.map((r) => `${r.tool} ${r.way}`)).to.deep.equal(PROVENANCE_READS.map((r) => `${r.tool} ${r.way}`));
    for (const row of rows) {
      expect(row.strings, `${row.tool} ${row.way}: strings fenced`).to.be.above(0);
      expect(row.with, `${row.tool} ${row.way}: with fences against without`).to.be.above(row.without);
    }
  });

  it('has a row in the doc for every read the bench makes', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/untrusted-content.md'), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- provenance tokens: begin'), doc.indexOf('<!-- provenance tokens: end -->'));
    for (const read of PROVENANCE_READS) {
      const way = read.way === 'unprojected' ? 'unprojected' : `jq \`${read.way}\``;
      expect(table, `${read.tool} ${read.way}`).to.contain(`| \`${read.tool}\` | ${way} |`);
    }
  });
});
