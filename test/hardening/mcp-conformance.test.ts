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
const SUITE = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
const NODE20_SHIM = resolve(here, '../support/conformance/register-node20.js');
const BASELINE = join(REPO_ROOT, 'test/hardening/conformance-baseline.yml');

/** The scenarios the baseline lists as not applying to this server. */
function notApplicable(): string[] {
  return readFileSync(BASELINE, 'utf8').split('\n').map((l) => /^\s+- ([\w-]+)/.exec(l)?.[1]).filter((s): s is string => s !== undefined);
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
    const run = await new Promise<{ code: number; out: string }>((done) => {
      execFile(process.execPath, ['--import', NODE20_SHIM, SUITE, 'server', '--url', server.url, '--suite', 'all', '--expected-failures', BASELINE], { cwd: mkdtempSync(join(tmpdir(), 'mcp-conformance-')), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
      );
    });
    const summary = run.out.slice(run.out.indexOf('=== SUMMARY ==='));
    const scenarios = [...summary.matchAll(/[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/g)].map((m) => ({ name: m[1]!, passed: Number(m[2]), failed: Number(m[3]) }));
    const passed = scenarios.filter((s) => s.passed > 0 && s.failed === 0).map((s) => s.name);
    const failed = scenarios.filter((s) => !passed.includes(s.name)).map((s) => s.name);
    process.stdout.write(`\n  MCP conformance: ${passed.length} scenarios pass (${passed.join(', ')}); ${failed.length} do not apply (test/hardening/conformance-baseline.yml)\n`);
    expect(run.code, summary).to.equal(0);
    expect(failed.sort()).to.deep.equal(notApplicable().sort());
    expect(passed).to.include.members(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']);
  });
});
