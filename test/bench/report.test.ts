import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'chai';
import { describeMachine } from './machine.js';
import { bestConfiguration } from './report.js';
import type { ThroughputRow } from './throughput.js';

const row = (server: string, callsPerSecond: number, cpuMsPerCall?: number): ThroughputRow => ({
  tool: 'github_list_workflow_runs',
  server,
  clients: 16,
  callsPerSecond,
  p50Ms: 80,
  p99Ms: 200,
  calls: 1000,
  upstreamRequests: 1000,
  ...(cpuMsPerCall === undefined ? {} : { cpuMsPerCall }),
});

describe('the throughput target: which configuration of ours it is judged on', () => {
  it('pools --workers auto with the --workers N it resolved to, rather than taking the luckier of two samples', () => {
    const best = bestConfiguration([
      row('ours', 104, 11),
      row('ours, --workers 1, SQLite store', 94.5, 12.6),
      row('ours, --workers 2, SQLite store', 140, 10.4),
      row('ours, --workers auto (2), SQLite store', 175, 9.4),
    ]);
    expect(best?.server).to.equal('ours, --workers 2, SQLite store');
    expect(best?.callsPerSecond).to.equal(157.5);
    expect(best?.cpuMsPerCall).to.be.closeTo(9.9, 1e-9);
    expect(best?.measured).to.deep.equal([140, 175]);
  });

  it('keeps auto apart when it means more workers than any row named, and a lone row as it was measured', () => {
    const best = bestConfiguration([row('ours, --workers 2, SQLite store', 175), row('ours, --workers auto (4), SQLite store', 300)]);
    expect(best?.server).to.equal('ours, --workers 4, SQLite store');
    expect(best?.callsPerSecond).to.equal(300);
    expect(best?.measured).to.deep.equal([300]);
    expect(bestConfiguration([])).to.equal(undefined);
  });
});

describe('the machine a run is measured on', () => {
  it('states what making a file costs where the servers keep cut texts, and leaves no folder behind', () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-devtools-file-cost-'));
    const machine = describeMachine();
    expect(machine.fileCreateMicros).to.be.a('number').and.greaterThan(0);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-devtools-file-cost-'))).to.deep.equal(before);
  });
});
