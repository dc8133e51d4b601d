import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, TEST_MODULES } from './paths.js';

describe("the test run's temporary folder", function () {
  this.timeout(60_000);

  it('is removed with what the tests made in it once the run has ended', () => {
    const record = join(mkdtempSync(join(tmpdir(), 'run-temp-record-')), 'made.txt');
    const sample = fileURLToPath(new URL('./run-temp.sample.js', import.meta.url));
    // A run of its own, with the suite's mocha configuration (package.json: the same setup and root hooks).
    execFileSync(process.execPath, [join(TEST_MODULES, 'mocha/bin/mocha.js'), sample], {
      cwd: REPO_ROOT,
      env: { ...process.env, RUN_TEMP_RECORD: record },
      stdio: 'pipe',
    });
    const made = readFileSync(record, 'utf8');
    expect(basename(dirname(made))).to.match(/^mcp-devtools-test-run-/);
    expect(existsSync(made), `${made} is still there`).to.equal(false);
    expect(existsSync(dirname(made)), `${dirname(made)} is still there`).to.equal(false);
  });
});
