import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { MECHANISMS } from '../bench/mechanisms.js';
import { TOOLS_LIST_CONFIGURATIONS } from '../bench/tools-list-tokens.js';
import { REPO_ROOT } from '../support/paths.js';

/** The text of a `## ` section, up to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next === -1 ? undefined : next);
}

// Issue 40: docs/benchmarks.md is a report, not a diary. `npm run bench` writes it; this holds what it may be.
describe('docs/benchmarks.md', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/benchmarks.md'), 'utf8');

  it('is at most 200 lines', () => {
    expect(doc.split('\n').length).to.be.at.most(200);
  });

  it('has the sections of a report and no others: targets, method, run of record, mechanisms, how to run', () => {
    expect(doc.match(/^## .*$/gm)).to.deep.equal(['## Targets', '## Method', '## Run of record', '## Mechanisms', '## How to run']);
  });

  it("states every budget of issue 40 with its figure and verdict, one table row each (the bench's configurations included)", () => {
    const rows = section(doc, 'Targets')
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| target') && !line.startsWith('| ---'));
    const targets = rows.map((row) => row.split(' | ')[0]!.slice(2));
    const expected = [
      /^start-up to the first tools\/list, the machine's Node/,
      /^start-up to the first tools\/list, Node 24/,
      /^jira_get per call/,
      /^one 16 MiB value spilled to an artifact and read back, fresh server/,
      /^one 16 MiB value spilled to an artifact and read back, after \d+ small calls/,
      ...TOOLS_LIST_CONFIGURATIONS.map((c) => new RegExp(`^tools/list, ${c.label}`)),
      ...MECHANISMS.map((m) => new RegExp(`^mechanism: ${m.name}$`)),
      /^code mode: tokens of six tasks/,
      /^code mode: execute with one inner call/,
      /^code mode: sandbox start-up per program/,
    ];
    expect(targets).to.have.length(expected.length);
    targets.forEach((target, i) => expect(target).to.match(expected[i]!));
    for (const row of rows) expect(row).to.match(/ \| (met|\*\*missed\*\*|not measured) \|$/);
  });

  it('gives each mechanism the bench measures one line, and says how to make the run of record', () => {
    const lines = section(doc, 'Mechanisms')
      .split('\n')
      .filter((line) => line.startsWith('- '));
    expect(lines.map((line) => /^- \*\*(.+?)\*\*/.exec(line)?.[1])).to.deep.equal(MECHANISMS.map((m) => m.name));
    expect(section(doc, 'How to run')).to.contain('npm run bench -- --before ').and.contain('.bench-commit');
  });
});
