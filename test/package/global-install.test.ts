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
import { REPO_ROOT } from '../support/paths.js';

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
    const { stdout } = await run('npm', ['pack', '--pack-destination', work, '--ignore-scripts'], { cwd: REPO_ROOT });
    const tarball = join(work, stdout.trim().split('\n').at(-1)!);
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

  it('lists the tools it serves', async () => {
    const { stdout } = await run(bin, ['tools', '--json'], { cwd: prefix, env: { PATH: process.env.PATH ?? '', HOME: prefix } });
    const tools = JSON.parse(stdout) as Array<{ name: string }>;
    expect(tools).to.have.length(46);
    expect(tools.map((t) => t.name)).to.include.members(['github_list_workflow_runs', 'jira_get', 'artifact_read']);
  });

  it('serves MCP over stdio to the official SDK client, calling a vendor', async () => {
    const mock = await MockUpstream.start();
    const transport = new StdioClientTransport({
      command: bin,
      args: [],
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

  it('has written the code cache of its start-up code beside it, in the installed package', () => {
    const chunks = join(prefix, 'lib', 'node_modules', 'mcp-devtools', 'dist', 'chunks');
    expect(readdirSync(chunks).filter((file) => /^startup-[\w-]+\.code\.js\..+\.cache$/.test(file))).to.have.length(1);
  });
});
