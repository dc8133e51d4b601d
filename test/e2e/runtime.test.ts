import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectStdio } from '../support/sdk-client.js';
import { runCli } from '../support/run-cli.js';
import { endOfLifeNotice } from '../../server/cli/runtime-support.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** Node has `module.enableCompileCache` from 22.1 on. */
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);

/** Every file below a folder, or none when it does not exist. */
const filesBelow = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe(`the runtime (dist/cli.js on Node ${process.versions.node})`, () => {
  it(hasCompileCache ? "keeps Node's compile cache in NODE_COMPILE_CACHE" : 'writes no compile cache where Node has none', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-compile-cache-')), 'cache');
    const run = await runCli(['--version'], { env: { NODE_COMPILE_CACHE: folder } });
    expect(run.code, run.stderr).to.equal(0);
    if (hasCompileCache) expect(filesBelow(folder)).to.not.deep.equal([]);
    else expect(filesBelow(folder)).to.deep.equal([]);
  });

  it(
    hasCompileCache ? 'puts the compile cache under XDG_CACHE_HOME when that is set' : 'leaves XDG_CACHE_HOME alone where Node has no compile cache',
    async () => {
      const xdg = mkdtempSync(join(tmpdir(), 'mcp-devtools-xdg-'));
      const run = await runCli(['--version'], { env: { XDG_CACHE_HOME: xdg } });
      expect(run.code, run.stderr).to.equal(0);
      expect(filesBelow(join(xdg, 'mcp-devtools', 'compile-cache')).length > 0).to.equal(hasCompileCache);
    },
  );

  it(major < 22 ? 'serves, and says once on stderr that this Node.js is past end of life' : 'serves with no runtime notice', async () => {
    const session = await connectStdio({ env: { LOG_LEVEL: 'info' } });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.length).to.be.above(30);
      const notices = session.stderr.filter((line) => line.includes('past end of life'));
      if (major < 22) {
        expect(notices).to.have.length(1);
        expect(JSON.parse(notices[0]!)).to.deep.include({ level: 40, node: process.versions.node });
      } else expect(notices).to.deep.equal([]);
    } finally {
      await session.close();
    }
  });

  it(major < 22 ? 'says it on every command too, once, as a plain warning on stderr' : 'says nothing of the runtime on a command', async () => {
    const notice = endOfLifeNotice();
    for (const args of [['--version'], ['--help'], ['tools', '--toolsets', 'circleci.rest'], ['config'], ['policy', 'explain', '--help']]) {
      const run = await runCli(args, { runtimeNotice: 'keep' });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(0);
      const warnings = run.stderr.split('\n').filter((line) => line.includes('past end of life'));
      expect(warnings, args.join(' ')).to.deep.equal(notice === undefined ? [] : [`warning: ${notice}`]);
      expect(run.stdout).not.to.include('past end of life');
    }
  });
});
