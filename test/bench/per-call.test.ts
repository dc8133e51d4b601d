import { expect } from 'chai';
import { benchPerCall, type PerCallResult } from './per-call.js';
import { serverCpuCell } from './report.js';

describe("the per-call benchmark: each server's own CPU beside the times", function () {
  this.timeout(60_000);
  // One small run, read by the tests below: each of them ran its own (two seconds of servers) for the same figures.
  let result: PerCallResult;
  before(async () => {
    result = await benchPerCall({ sizes: [2048], iterations: () => 40, warmUpCalls: 5 });
  });

  it("reads ours and the reference's CPU over each row's measured calls, from their processes", () => {
    expect(result.rows).to.have.length(4);
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

  it("shows both and ours as a share of the reference's, and nothing when they were not read", () => {
    expect(serverCpuCell({ cpuMsPerCall: { ours: 1.5, reference: 2.5 } })).to.equal('1.50 / 2.50 ms = 0.600x');
    expect(serverCpuCell({})).to.equal('');
  });
});
