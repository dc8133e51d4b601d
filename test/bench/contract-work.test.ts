import { existsSync, readdirSync } from 'node:fs';
import { expect } from 'chai';
import { ContractWork } from './contract-work.js';

describe("the per-call benchmark: the contract's own work on JSON without a jq", () => {
  it('times the file only for a text over the cut, and keeps no file nor, once closed, its folder', () => {
    const work = new ContractWork();
    try {
      // About 60,000 characters once indented: over the 40,000 shown to the model.
      const page = { issues: Array.from({ length: 1000 }, (_, i) => ({ key: `PROJ-${i}`, id: i })) };
      expect(JSON.stringify(page, null, 2).length).to.be.greaterThan(40_000);
      const cut = work.once(page);
      expect(cut.render).to.be.greaterThan(0);
      expect(cut.file).to.be.greaterThan(0);
      // Removed once timed: none is left to be written back while the servers run.
      expect(readdirSync(work.folder)).to.deep.equal([]);
      expect(work.once({ issues: [{ key: 'PROJ-1' }] }).file).to.equal(0);
    } finally {
      work.close();
    }
    expect(existsSync(work.folder)).to.equal(false);
  });
});
