// docs/plugins.md's recipe for a plugin outside this repository, run as written (issue 55, item 5): `npm pack`
// of the clone, then, in a copy of the GitLab example that no longer points at `file:../..`, `npm install
// --save-exact` of that tarball and `npm test`, which compiles the plugin against `mcp-devtools/plugin` and runs
// its tests with the kit (`mcp-devtools/testing`) from the tarball. Slow (npm installs every dependency), so it
// runs with the other package tests (`npm run test:package`), not in `npm test`.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { codeBlocks, readDoc } from '../support/markdown.js';
import { packTarball, stagePackage } from '../support/package-stage.js';
import { REPO_ROOT } from '../support/paths.js';

const run = promisify(execFile);
const EXAMPLE = join(REPO_ROOT, 'examples/plugin-gitlab');

describe("docs/plugins.md: a plugin installs mcp-devtools and its test kit from the clone's tarball", function () {
  this.timeout(30 * 60_000);

  it('gives the recipe: pack the clone, install the tarball with --save-exact, npm test', () => {
    const recipe = codeBlocks(readDoc('docs/plugins.md')).find((block) => block.lang === 'sh' && block.code.includes('npm pack'))?.code;
    expect(recipe).to.equal(
      [
        'cd /path/to/mcp-devtools && npm ci && npm run build && npm pack',
        'cd /path/to/my-plugin && npm install --save-exact /path/to/mcp-devtools/mcp-devtools-0.3.0.tgz',
        'npm test',
      ].join('\n'),
    );
  });

  it('builds and passes the GitLab example against the tarball, with no path back to the clone', async () => {
    const work = mkdtempSync(join(tmpdir(), 'mcp-devtools-kit-'));
    const tarball = await packTarball(stagePackage(), work);
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(basename(tarball)).to.equal(`mcp-devtools-${version}.tgz`);
    const plugin = join(work, 'my-plugin');
    cpSync(EXAMPLE, plugin, { recursive: true, filter: (path) => !/\/(node_modules|build)(\/|$)/.test(path.slice(EXAMPLE.length)) });
    // A plugin of its own has no file:../..: it starts without mcp-devtools, as `npm init` would leave it.
    const pkg = JSON.parse(readFileSync(join(plugin, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    delete pkg.dependencies['mcp-devtools'];
    writeFileSync(join(plugin, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const options = { cwd: plugin, maxBuffer: 64 * 1024 * 1024 };
    await run('npm', ['install', '--save-exact', '--no-audit', '--no-fund', '--prefer-offline', tarball], options);
    const installed = JSON.parse(readFileSync(join(plugin, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(installed.dependencies['mcp-devtools']).to.equal(`file:../${basename(tarball)}`);
    const { stdout } = await run('npm', ['test'], options);
    expect(stdout).to.match(/\d+ passing/);
    expect(stdout).not.to.match(/\d+ failing/);
  });
});
