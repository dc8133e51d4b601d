import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { CALL_STEPS, KERNEL_INTERCEPTORS, STAGES } from '../../core/pipeline/pipeline.js';
import { CORE_FLOORS, SERVER_FLOORS } from '../support/floors.js';
import { REPO_ROOT } from '../support/paths.js';

const FILE = 'docs/architecture.md';
const DOC = readFileSync(join(REPO_ROOT, FILE), 'utf8');

/** The text of a `## ` section, up to the next one. */
function section(heading: string): string {
  const start = DOC.indexOf(`\n## ${heading}\n`);
  expect(start, `${FILE} has no "## ${heading}" section`).to.be.above(-1);
  const next = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, next === -1 ? undefined : next);
}

// Item 7 of issue 50: the map of the code, short, and true of the code it maps.
describe('docs/architecture.md', () => {
  it('is at most 200 lines', () => {
    expect(DOC.split('\n').length).to.be.at.most(200);
  });

  it('names every floor of core and of server, in the layer test’s order', () => {
    const floors = section('Floors');
    const at = (name: string, after: number): number => floors.indexOf(`\`${name}\``, after);
    for (const list of [CORE_FLOORS, SERVER_FLOORS]) {
      let last = 0;
      for (const floor of list) {
        const found = at(floor, last);
        expect(found, `floor ${floor} is not named after the one below it`).to.be.above(-1);
        last = found;
      }
    }
  });

  it('gives the call’s order as pipeline.ts runs it: every call-wide step, stage and kernel interceptor, in order', () => {
    const order = section('One call, in one order');
    const names = [...CALL_STEPS.map((s) => s.name), ...STAGES, ...KERNEL_INTERCEPTORS.map((i) => i.name)];
    let last = 0;
    for (const name of names) {
      const found = order.indexOf(`\`${name}\``, last);
      expect(found, `${name} is not named, in order, in "One call, in one order"`).to.be.above(-1);
      last = found;
    }
  });

  it('links only to files that exist, and names only source files that exist', () => {
    for (const [, target] of DOC.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) {
      expect(existsSync(join(REPO_ROOT, dirname(FILE), target!)), `link to ${target}`).to.equal(true);
    }
    for (const [, path] of DOC.matchAll(/`((?:core|plugins|server|test|examples)\/[\w./-]+)`/g)) {
      expect(existsSync(join(REPO_ROOT, path!)), `${path} is named but does not exist`).to.equal(true);
    }
  });
});
