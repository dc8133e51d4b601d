// The package's bin run as `npx` runs it, from the packed tarball: `npx --yes ./mcp-devtools-VERSION.tgz`, the
// command the published `npx -y mcp-devtools` will be, installs the package and its dependencies into npm's
// own cache and starts the server, which serves MCP over stdio to the official SDK client.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { packTarball, stagePackage } from '../support/package-stage.js';
import { REPO_ROOT } from '../support/paths.js';

const run = promisify(execFile);

describe('npx of the packed tarball', function () {
  this.timeout(20 * 60_000);
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  let work: string;
  let tarball: string;
  let cache: string;
  let env: Record<string, string>;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'mcp-devtools-npx-'));
    tarball = await packTarball(stagePackage(), work);
    // npm's own cache (packages `npm ci` fetched come from it), a HOME of the test's own for the server's lookups
    // (.env, ~/.mcp/configs.json). sqlite3's install script, a native build of minutes where no prebuilt binary
    // can be fetched, is left out: a stdio server on the memory store never loads it (the global install test
    // runs it).
    cache = (await run('npm', ['config', 'get', 'cache'])).stdout.trim();
    env = { PATH: process.env.PATH ?? '', HOME: work, npm_config_cache: cache, npm_config_ignore_scripts: 'true', npm_config_prefer_offline: 'true' };
  });
  after(() => {
    // npx installed the tarball into <cache>/_npx/<hash>: remove that install, and only that one.
    const npx = join(cache, '_npx');
    if (!existsSync(npx)) return;
    for (const entry of readdirSync(npx)) {
      const manifest = join(npx, entry, 'package.json');
      if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(basename(work))) rmSync(join(npx, entry), { recursive: true, force: true });
    }
  });

  it(`is the README's command: \`npx --yes ./mcp-devtools-${version}.tgz\` prints the version`, async () => {
    expect(basename(tarball)).to.equal(`mcp-devtools-${version}.tgz`);
    const { stdout } = await run('npx', ['--yes', `./${basename(tarball)}`, '--version'], { cwd: work, env, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout.trim()).to.equal(version);
  });

  it('serves MCP over stdio to the official SDK client, calling a vendor', async () => {
    const mock = await MockUpstream.start();
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--yes', `./${basename(tarball)}`, '--toolsets', 'circleci.rest'],
      cwd: work,
      env: { ...env, CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: canary('CCIPAT_') },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'npx-check', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      mock.on('GET', '/api/v2/me', { body: { login: 'bot', name: 'CI bot' } });
      await client.connect(transport);
      expect(client.getServerVersion()).to.deep.include({ name: 'mcp-devtools', version });
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('circleci_get');
      const result = await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
      expect(result.isError).to.equal(undefined);
      expect((result.content as Array<{ text: string }>)[0]!.text).to.contain('login: bot');
      expect(mock.requests.map((r) => r.path)).to.deep.equal(['/api/v2/me']);
    } finally {
      await client.close();
      await mock.close();
    }
  });
});
