import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'chai';
import { CONTRACT_FOLDER_PREFIX } from './contract-work.js';
import { benchPerCall, type PerCallResult } from './per-call.js';
import { contractShareCell, serverCpuCell } from './report.js';

describe("the per-call benchmark: each server's own CPU beside the times", function () {
  this.timeout(60_000);
  // One small run, read by the tests below: each of them ran its own (two seconds of servers) for the same figures.
  let result: PerCallResult;
  let contractFoldersBefore: string[];
  const contractFolders = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith(CONTRACT_FOLDER_PREFIX));
  before(async () => {
    contractFoldersBefore = contractFolders();
    // 2 KB renders under the cut; 48 KB of page renders as JSON over 40,000 characters, so its text is cut.
    result = await benchPerCall({ sizes: [2048, 48 * 1024], iterations: (bytes) => (bytes > 4096 ? 10 : 40), warmUpCalls: 5 });
  });

  it("reads ours and the reference's CPU over each row's measured calls, from their processes", () => {
    expect(result.rows).to.have.length(8);
    for (const row of result.rows) {
      // 40 calls of a few hundred microseconds to a few milliseconds each: more than nothing, less than a second a call.
      expect(row.cpuMsPerCall?.ours, `${row.format} ${row.jq}`).to.be.greaterThan(0).and.lessThan(1000);
      expect(row.cpuMsPerCall?.reference, `${row.format} ${row.jq}`).to.be.greaterThan(0).and.lessThan(1000);
    }
  });

  it('takes the floor as issue 18 names it: the fetch and JSON.parse, then one stdio round trip to neither measured server', () => {
    for (const row of result.rows) {
      const where = `${row.format} ${row.jq}`;
      expect(row.fetchAndParse.median, where).to.be.greaterThan(0);
      // The round trip is an MCP ping of a reference server: the floor stands above its fetch and parse by about a ping.
      expect(row.floor.median, where).to.be.greaterThan(row.fetchAndParse.median);
      expect(row.floor.median - row.fetchAndParse.median, where).to.be.lessThan(20 * result.ping.reference.median);
    }
    // Pinged, a measured server would do work inside its own row's CPU reading and be woken before a call: the
    // round trip goes to a process of its own.
    const { ours, reference, floorRoundTrip } = result.pids;
    expect(floorRoundTrip).to.be.a('number');
    expect([ours, reference]).to.not.include(floorRoundTrip);
  });

  it('times what the contract itself asks of JSON without a jq: its text, and its file only when that text is cut', () => {
    for (const row of result.rows) {
      const where = `${row.bodyBytes} ${row.format} ${row.jq}`;
      if (row.format !== 'json' || row.jq) {
        expect(row.contract, where).to.equal(undefined);
        continue;
      }
      expect(row.contract, where).to.not.equal(undefined);
      const { render, file, longer } = row.contract!;
      expect(render.median, where).to.be.greaterThan(0);
      if (row.bodyBytes < 4096) expect(file.median, `${where}: under the cut, no file is required`).to.equal(0);
      else expect(file.median, `${where}: a cut text's file`).to.be.greaterThan(0);
      // The longer of the two in each sample: never less than either's median, and taken as often as the row's calls.
      expect(longer.median, where).to.be.at.least(Math.max(render.median, file.median));
      expect(longer.n, where).to.equal(row.floor.n);
    }
    // The files written for it are the benchmark's, not kept.
    expect(contractFolders()).to.deep.equal(contractFoldersBefore);
  });

  it("shows the contract's share of the reference where it was timed, and nothing elsewhere", () => {
    const summary = (median: number) => ({ median, p99: median, p25: median, p75: median, n: 1 });
    // The row's floor with the longer of text and file added.
    const row = { floor: summary(2.1), reference: summary(4), contract: { render: summary(0.3), file: summary(0.45), longer: summary(0.5) } };
    expect(contractShareCell(row)).to.equal('2.60 ms = 0.650x');
    expect(contractShareCell({ floor: summary(2.1), reference: summary(4) })).to.equal('');
  });

  it("shows both and ours as a share of the reference's, and nothing when they were not read", () => {
    expect(serverCpuCell({ cpuMsPerCall: { ours: 1.5, reference: 2.5 } })).to.equal('1.50 / 2.50 ms = 0.600x');
    expect(serverCpuCell({})).to.equal('');
  });
});
