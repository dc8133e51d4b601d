import { expect } from 'chai';
import { errorExcerpts, readableLog } from '../../../plugins/ci/error-lines.js';

// What a failure report shows of a log is what the model reads to find the cause: for each toolchain, the line
// that names the cause must be in the first excerpt, and the noise around it (passing tests, download output,
// the exit code) left out when it is far away.

/** A log with `before` lines of noise, the failure, then `after` lines of noise and an exit code. */
function logWith(failure: string[], before = 40, after = 40, exit = 'make: *** [Makefile:12: test] Error 1'): string[] {
  const noise = (n: number, what: string): string[] => Array.from({ length: n }, (_, i) => `${what} ${i}`);
  return [...noise(before, 'downloading module'), ...failure, ...noise(after, 'cleaning up'), exit];
}

const first = (lines: string[], contextLines = 3): string => errorExcerpts(lines, { contextLines, maxExcerpts: 3 })[0]!.text;

const TOOLCHAINS: Array<[string, string[], string]> = [
  ['tsc', ["src/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'."], 'error TS2322'],
  ['tsc --pretty', ["src/cart.ts:12:7 - error TS2322: Type 'string' is not assignable to type 'number'."], 'error TS2322'],
  ['eslint', ['/home/runner/work/app/src/cart.ts', "  12:7  error  'total' is assigned a value but never used  no-unused-vars"], 'no-unused-vars'],
  ['gcc', ["src/parse.c:88:14: error: 'len' undeclared (first use in this function)"], "'len' undeclared"],
  ['go test', ['--- FAIL: TestParseHeader (0.00s)', '    header_test.go:41: got "text/html", want "application/json"'], 'want "application/json"'],
  ['go panic', ['panic: runtime error: index out of range [3] with length 3'], 'index out of range'],
  ['cargo build', ['error[E0308]: mismatched types', '  --> src/main.rs:4:18'], 'mismatched types'],
  ['cargo test', ["thread 'tests::parses_empty' panicked at src/lib.rs:22:9:", 'assertion `left == right` failed'], 'panicked at src/lib.rs:22:9'],
  ['pytest', ['___________________ test_checkout_total ___________________', 'E       assert 97.2 == 90.72'], 'assert 97.2 == 90.72'],
  [
    'jest',
    ['FAIL src/cart/cart-total.test.ts', '  ● cart total › applies the member discount before tax', '    Expected: 90.72'],
    'applies the member discount',
  ],
  ['mocha', ['  1) search', '       ranks recent documents first:', '     AssertionError: expected 2 to equal 1'], 'expected 2 to equal 1'],
  ['maven', ['[ERROR] Failures: ', '[ERROR]   CartTest.memberDiscount:43 expected:<90.72> but was:<97.2>'], 'expected:<90.72>'],
  ['gradle', ['> Task :app:test FAILED', 'CartTest > memberDiscount() FAILED'], ':app:test FAILED'],
  [
    'docker',
    [
      '#12 ERROR: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1',
      'ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1',
    ],
    'failed to solve',
  ],
  ['npm', ['npm ERR! code ERESOLVE', 'npm ERR! ERESOLVE unable to resolve dependency tree'], 'ERESOLVE unable to resolve'],
];

describe('error lines of a CI log (plugins/ci/error-lines.ts)', () => {
  for (const [toolchain, failure, cause] of TOOLCHAINS) {
    it(`shows the cause of a ${toolchain} failure in the middle of a log, not the noise far from it`, () => {
      const text = first(logWith(failure, 40, 40, toolchain === 'npm' ? 'Exited with code exit status 1' : 'make: *** [Makefile:12: test] Error 1'));
      expect(text).to.contain(cause);
      expect(text).not.to.contain('downloading module 10');
      expect(text).not.to.contain('cleaning up 30');
    });
  }

  it('prefers a specific error to the generic lines a build prints when it gives up', () => {
    const lines = logWith(
      ["src/cart.ts(12,7): error TS2322: Type 'string' is not assignable to type 'number'."],
      5,
      60,
      'make: *** [Makefile:12: build] Error 2',
    );
    const excerpts = errorExcerpts(lines, { contextLines: 2, maxExcerpts: 3 });
    expect(excerpts).to.have.length(1);
    expect(excerpts[0]!.line).to.equal(6);
    expect(excerpts[0]!.text).not.to.contain('make: ***');
  });

  it('falls back to the generic lines when nothing specific matched, then to the last lines', () => {
    expect(first(logWith([], 10, 10, 'make: *** [Makefile:12: deploy] Error 2'), 1)).to.contain('make: *** [Makefile:12: deploy] Error 2');
    const quiet = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(errorExcerpts(quiet, { contextLines: 1, maxExcerpts: 3 })).to.deep.equal([{ line: 4, text: 'd\ne\nf' }]);
  });

  it('keeps at most contextLines around each error, merges neighbours, and shows at most maxExcerpts', () => {
    const lines = Array.from({ length: 200 }, (_, i) => (i % 40 === 5 ? `src/f${i}.ts(1,1): error TS1005: ';' expected.` : `line ${i}`));
    const excerpts = errorExcerpts(lines, { contextLines: 2, maxExcerpts: 3 });
    expect(excerpts.map((e) => e.line)).to.deep.equal([6, 46, 86]);
    for (const e of excerpts) expect(e.text.split('\n')).to.have.length(5);
    // A run of errors in a row grows one window only so far: the first errors are the cause.
    const run = Array.from({ length: 300 }, (_, i) => `src/f${i}.ts(1,1): error TS1005: ';' expected.`);
    expect(errorExcerpts(run, { contextLines: 3, maxExcerpts: 3 }).reduce((n, e) => n + e.text.split('\n').length, 0)).to.be.at.most(3 * 13);
  });

  it('reads a GitHub log as a person does: no BOM, timestamps, group markers or colours; a redrawn line as drawn last', () => {
    const raw =
      '\uFEFF2026-11-30T14:02:00.1000000Z ##[group]Run npm test\n2026-11-30T14:02:01.2000000Z \u001b[31mFAIL\u001b[0m src/a.test.ts\n2026-11-30T14:02:02.3000000Z 10%\r50%\r100%\n';
    expect(readableLog(raw)).to.deep.equal(['Run npm test', 'FAIL src/a.test.ts', '100%', '']);
  });

  it('cuts a very long line, so a minified bundle on one line cannot fill the report', () => {
    const text = first(['x', `Error: ${'a'.repeat(5000)}`, 'y'], 1);
    expect(text.length).to.be.below(300);
  });
});
