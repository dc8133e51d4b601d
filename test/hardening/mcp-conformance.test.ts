import { stripVTControlCharacters } from 'node:util';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { REPO_ROOT } from '../support/paths.js';
import { startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const here = dirname(fileURLToPath(import.meta.url));
const suiteOf = (pkg: string): string => join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), 'dist/index.js');
const SUITE = suiteOf('@modelcontextprotocol/conformance');
/** The pre-release line of the same package with the 2026-07-28 requirements (installed as `conformance-2026`). */
const SUITE_2026 = suiteOf('conformance-2026');
const NODE20_SHIM = resolve(here, '../support/conformance/register-node20.js');
const BASELINE = join(REPO_ROOT, 'test/hardening/conformance-baseline.yml');
const BASELINE_2026 = join(REPO_ROOT, 'test/hardening/conformance-baseline-2026-07-28.yml');

/** Runs a conformance suite's server side against the server; its exit code and everything it printed. */
function runSuite(suite: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', NODE20_SHIM, suite, 'server', ...args],
      { cwd: mkdtempSync(join(tmpdir(), 'mcp-conformance-')), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stripVTControlCharacters(`${stdout}\n${stderr}`) }),
    );
  });
}

/** The scenarios the baseline lists as not applying to this server. */
function notApplicable(): string[] {
  return readFileSync(BASELINE, 'utf8')
    .split('\n')
    .map((l) => /^\s+- ([\w-]+)/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined);
}

describe('hardening: the official MCP conformance suite, server side (@modelcontextprotocol/conformance)', function () {
  this.timeout(120_000);
  let server: HttpServerProcess;

  before(async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-conformance-'));
    leakAudit.watchPath(cwd);
    server = await startHttpServer({ cwd, env: { GITHUB_TOKEN: 'conformance-unused-token' } });
  });
  after(async () => {
    await server?.stop();
  });

  it('passes every scenario that applies; the baseline names, with reasons, the ones that do not', async () => {
    const run = await runSuite(SUITE, ['--url', server.url, '--suite', 'all', '--expected-failures', BASELINE]);
    const summary = run.out.slice(run.out.indexOf('=== SUMMARY ==='));
    const scenarios = [...summary.matchAll(/[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/g)].map((m) => ({
      name: m[1]!,
      passed: Number(m[2]),
      failed: Number(m[3]),
    }));
    const passed = scenarios.filter((s) => s.passed > 0 && s.failed === 0).map((s) => s.name);
    const failed = scenarios.filter((s) => !passed.includes(s.name)).map((s) => s.name);
    process.stdout.write(
      `\n  MCP conformance: ${passed.length} scenarios pass (${passed.join(', ')}); ${failed.length} do not apply (test/hardening/conformance-baseline.yml)\n`,
    );
    expect(run.code, summary).to.equal(0);
    expect(failed.sort()).to.deep.equal(notApplicable().sort());
    // logging/setLevel is honoured; resources/list answers (the artifacts are resources, listed by none).
    expect(passed).to.include.members(['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'resources-list', 'dns-rebinding-protection']);
  });

  it('meets the requirements of revision 2026-07-28 that apply; the check-level baseline names the others', async () => {
    const run = await runSuite(SUITE_2026, ['--url', server.url, '--requirements', '2026-07-28', '--expected-failures', BASELINE_2026]);
    const summary = run.out.slice(run.out.indexOf('=== SUMMARY ==='));
    expect(run.code, summary).to.equal(0);
    expect(summary).to.contain('Baseline check passed');
    // The stateless lifecycle (per-request envelope, 404 for removed methods, header checks), the resources
    // (a read of a missing one is -32602 with its uri) and the cache hints.
    for (const scenario of [
      'tools-list',
      'resources-list',
      'sep-2164-resource-not-found',
      'dns-rebinding-protection',
      'input-required-result-unsupported-methods',
      'input-required-result-validate-input',
    ])
      expect(summary).to.match(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    expect(summary).to.match(/✗ server-stateless: 24 passed, 4 failed/);
    expect(summary).to.match(/✓ http-header-validation: 14 passed, 0 failed/);
    expect(summary).to.match(/✗ caching: 6 passed, 1 failed/);
  });
});
