// The package installed as MCP servers are installed: `npm pack`, then `npm install -g` of the tarball into a
// clean prefix, then the installed `mcp-devtools` on its own. Slow (npm installs every dependency), so it runs
// as its own CI step (`npm run test:package`), not in `npm test`.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { packTarball, stagePackage } from '../support/package-stage.js';
import { REPO_ROOT } from '../support/paths.js';
import { EVERY_VENDOR_CREDENTIALS } from '../support/every-vendor-credentials.js';

const run = promisify(execFile);

/** Every file below `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [path.slice(base.length + 1)];
  });
}

describe('npm install -g of the packed tarball into a clean prefix', function () {
  this.timeout(30 * 60_000);
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  let prefix: string;
  let bin: string;

  before(async () => {
    const work = mkdtempSync(join(tmpdir(), 'mcp-devtools-install-'));
    prefix = join(work, 'prefix');
    const tarball = await packTarball(stagePackage(), work);
    // Dependencies come from the npm cache when `npm ci` already fetched them, else from the registry.
    await run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: work,
      maxBuffer: 64 * 1024 * 1024,
    });
    bin = join(prefix, 'bin', 'mcp-devtools');
  });

  it("puts an executable mcp-devtools on the prefix's bin, holding no sources, tests, source maps or code caches", () => {
    expect(existsSync(bin)).to.equal(true);
    const installed = walk(join(prefix, 'lib', 'node_modules', 'mcp-devtools')).filter((f) => !f.startsWith('node_modules/'));
    expect(installed.filter((f) => !f.startsWith('dist/')).sort()).to.deep.equal(['LICENSE', 'README.md', 'package.json']);
    expect(installed.filter((f) => f.endsWith('.map') || f.endsWith('.cache') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).to.deep.equal([]);
  });

  it('prints its version', async () => {
    const { stdout } = await run(bin, ['--version'], { env: { PATH: process.env.PATH ?? '' } });
    expect(stdout.trim()).to.equal(version);
  });

  it('lists the tools it serves: the default toolsets, and every tool with --toolsets all', async () => {
    // Every vendor configured: the default set leaves out a vendor without credentials.
    const options = { cwd: prefix, env: { PATH: process.env.PATH ?? '', HOME: prefix, ...EVERY_VENDOR_CREDENTIALS } };
    const listed = async (...args: string[]): Promise<string[]> =>
      (JSON.parse((await run(bin, ['tools', '--json', ...args], options)).stdout) as Array<{ name: string }>).map((t) => t.name);
    const defaults = await listed();
    const all = await listed('--toolsets', 'all');
    expect(defaults).to.include.members(['github_list_workflow_runs', 'jira_search', 'circleci_pipeline_status', 'artifact_read']);
    expect(defaults).not.to.include('jira_get');
    expect(all).to.include.members([...defaults, 'jira_get', 'circleci_get', 'bb_get']);
  });

  it('serves MCP over stdio to the official SDK client, calling a vendor', async () => {
    const mock = await MockUpstream.start();
    const transport = new StdioClientTransport({
      command: bin,
      args: ['--toolsets', 'circleci.rest'],
      cwd: prefix,
      env: { PATH: process.env.PATH ?? '', HOME: prefix, CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: canary('CCIPAT_') },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'install-check', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      mock.on('GET', '/api/v2/me', { body: { login: 'bot', name: 'CI bot' } });
      await client.connect(transport);
      expect(client.getServerVersion()).to.deep.include({ name: 'mcp-devtools', version });
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
      const result = await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
      expect(result.isError).to.equal(undefined);
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      expect(text).to.contain('login: bot').and.to.contain('name: CI bot').and.to.contain('hit: false');
      expect(mock.requests.map((r) => r.path)).to.deep.equal(['/api/v2/me']);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('has written nothing into its installed folder after serving (a compile cache goes to the OS cache or temp folder)', () => {
    const installed = walk(join(prefix, 'lib', 'node_modules', 'mcp-devtools')).filter((f) => !f.startsWith('node_modules/'));
    expect(installed.filter((f) => !f.startsWith('dist/')).sort()).to.deep.equal(['LICENSE', 'README.md', 'package.json']);
    expect(installed.filter((f) => f.endsWith('.cache') || f.includes('compile-cache'))).to.deep.equal([]);
  });
});
