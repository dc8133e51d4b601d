import { expect } from 'chai';
import { renderReport } from '../bench/report.js';
import { failuresOf, targetsOf } from '../bench/targets.js';
import { fullRun } from './bench-results-fixture.js';

/** The row of a markdown table whose first cell starts with `first`, as its cells. */
function rowOf(markdown: string, first: string): string[] {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${first}`));
  if (line === undefined) throw new Error(`no table row starts with ${JSON.stringify(first)}`);
  return line.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, '').trim());
}

/** The text of a `## ` section, up to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`no section ${heading}`);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next === -1 ? undefined : next);
}

describe('the benchmark report (test/bench/report.ts) rendered from a run', () => {
  it("fits a full run's tables in 200 lines, in the sections docs/benchmarks.md keeps", () => {
    const report = renderReport(fullRun());
    expect(report.split('\n').length).to.be.at.most(200);
    expect(report.match(/^## .*$/gm)).to.deep.equal(['## Targets', '## Method', '## Run of record', '## Mechanisms', '## How to run']);
  });

  it('judges start-up against each runtime budget: 1.2x is within 1.3x on the machine, 1.05x is over 1.0x on Node 24', () => {
    const targets = section(renderReport(fullRun()), 'Targets');
    expect(rowOf(targets, "start-up to the first tools/list, the machine's Node")).to.include.members([
      'ours / before <= 1.3x',
      '1.20x (120 against 100 ms)',
      'met',
    ]);
    expect(rowOf(targets, 'start-up to the first tools/list, Node 24')).to.include.members([
      'ours / before <= 1.0x',
      '1.05x (105 against 100 ms)',
      '**missed**',
    ]);
  });

  it('misses the per-call budget on the one row over 1.15x, and names that row', () => {
    const report = renderReport(fullRun());
    expect(rowOf(section(report, 'Targets'), 'jira_get per call')).to.include.members(['worst 1.20x (5.00 MiB, json +jq); 15 of 16 rows within', '**missed**']);
    const perCall = report.split('\n').filter((l) => /^\| (2\.00 KiB|100 KiB|1\.00 MiB|5\.00 MiB) \|/.test(l));
    expect(perCall).to.have.length(16);
    expect(perCall.filter((l) => l.includes('**missed**'))).to.deep.equal([perCall.find((l) => l.startsWith('| 5.00 MiB | json | yes |'))]);
  });

  it('reports peak memory over idle in multiples of the value, fresh and warm, ours judged, before beside it', () => {
    const report = renderReport(fullRun());
    const targets = section(report, 'Targets');
    expect(rowOf(targets, 'one 16 MiB value spilled to an artifact and read back, fresh server')).to.include.members([
      '<= 6x the value',
      '+88.0 MiB = 5.50x (before: 7.80x)',
      'met',
    ]);
    expect(rowOf(targets, 'one 16 MiB value spilled to an artifact and read back, after 600 small calls')).to.include.members([
      '<= 6x the value',
      '+56.0 MiB = 3.50x (before: 19.0x)',
      'met',
    ]);
    expect(rowOf(report, 'before | fresh: one small call')).to.include('7.80x');
    expect(rowOf(report, 'before | warm: 600 small calls')).to.include('19.0x');
  });

  it('misses the spill budget of a fresh server over 6x, whatever the warm one does', () => {
    const run = fullRun();
    if (run.spill.ok) run.spill.value[0]!.peakRssBytes = run.spill.value[0]!.idleRssBytes + 6.5 * run.spill.value[0]!.valueBytes;
    const rows = targetsOf(run).filter((t) => t.target.startsWith('one 16 MiB value'));
    expect(rows.map((t) => [t.figure, t.met])).to.deep.equal([
      ['+104 MiB = 6.50x (before: 7.80x)', false],
      ['+56.0 MiB = 3.50x (before: 19.0x)', true],
    ]);
  });

  it('says a configuration that did not start was not measured, rather than met or missed', () => {
    const rows = targetsOf(fullRun()).filter((t) => t.target.startsWith('tools/list'));
    expect(rows.map((t) => t.met)).to.deep.equal([true, false, undefined]);
    expect(rows[2]!.figure).to.equal("not measured: the server exited (1) before listing its tools: error: unknown option '--dynamic-toolsets'");
    expect(failuresOf(fullRun())).to.deep.equal([]);
  });

  it('keeps a mechanism that wins 10% on some page and says to take out one that wins less everywhere', () => {
    const mechanisms = section(renderReport(fullRun()), 'Mechanisms');
    const [toon, json] = mechanisms.split('\n').filter((l) => l.startsWith('- '));
    expect(toon).to.contain(
      'less time: 60% at 2.00 KiB, 65% at 100 KiB, 70% at 1.00 MiB, 70% at 5.00 MiB. Kept: it wins >= 10% at 2.00 KiB, 100 KiB, 1.00 MiB, 5.00 MiB.',
    );
    expect(json).to.contain('less time: -50% at 2.00 KiB, 2% at 100 KiB, 5% at 1.00 MiB, 8% at 5.00 MiB. **It wins >= 10% nowhere: take it out**.');
    expect(
      targetsOf(fullRun())
        .filter((t) => t.target.startsWith('mechanism'))
        .map((t) => t.met),
    ).to.deep.equal([true, false]);
  });

  it('without a baseline, leaves the ratios unmeasured instead of judging them', () => {
    const run = fullRun();
    delete run.beforeCommit;
    for (const s of run.startup) if (s.outcome.ok) delete s.outcome.value.before;
    if (run.perCall.ok) for (const row of run.perCall.value.rows) delete row.times.before;
    const targets = targetsOf(run);
    expect(targets.filter((t) => t.target.startsWith('start-up') || t.target.startsWith('jira_get')).map((t) => [t.figure, t.met])).to.deep.equal(
      Array.from({ length: 3 }, () => ['not measured: run with --before DIR', undefined]),
    );
    expect(renderReport(run)).to.contain('no baseline given (`--before`)');
  });

  it('shows why a part could not run in place of its table, and counts it as a failure of the run', () => {
    const run = fullRun();
    run.spill = { ok: false, error: 'the 16 MiB value did not spill to an artifact' };
    const report = renderReport(run);
    expect(report).to.contain('### Memory\n\nNot measured: the 16 MiB value did not spill to an artifact\n');
    expect(rowOf(section(report, 'Targets'), 'one 16 MiB value spilled to an artifact and read back, fresh server')).to.include('not measured');
    expect(rowOf(section(report, 'Targets'), 'one 16 MiB value spilled to an artifact and read back, after 600')).to.include('not measured');
    expect(failuresOf(run)).to.deep.equal(['spill memory: the 16 MiB value did not spill to an artifact']);
  });
});
