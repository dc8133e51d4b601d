// The README as a new user follows it: its first two commands, its install section, the outputs it shows and
// the settings it names, each run or read against the code. A test fails when the README drifts from it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { codeBlocks, commandLines, docsFiles, readDoc, section, shellWords, terminalSamples } from '../support/markdown.js';
import { packedFiles, stagePackage } from '../support/package-stage.js';
import { REPO_ROOT } from '../support/paths.js';
import { allSettings } from '../support/reference-docs.js';
import { runCli } from '../support/run-cli.js';
import { connectStdio } from '../support/sdk-client.js';

const README = readDoc('README.md');
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

/** `mcp-devtools ARGS` as the README writes it: the arguments, for runCli. */
function cliArgs(command: string): string[] {
  const [bin, ...args] = shellWords(command);
  expect(bin, command).to.equal('mcp-devtools');
  return args;
}

describe('README.md', () => {
  describe('opens with the two commands that set up a fresh machine', () => {
    const first = codeBlocks(README)[0]!;

    it('one serves on the embedded defaults, one runs every test', () => {
      expect(README.indexOf('```sh')).to.be.below(README.indexOf('\n## '));
      expect(commandLines(first.code).map((l) => l.command)).to.deep.equal(['npm ci && npm run build && node dist/cli.js', 'npm ci && npm test']);
    });

    it('`npm run build` makes the command the package installs, and `npm test` installs and builds what it needs before running every test', () => {
      expect(pkg.bin['mcp-devtools']).to.equal('dist/cli.js');
      expect(pkg.scripts.build).to.contain('rollup');
      expect(pkg.scripts.pretest)
        .to.contain('npm run test:install')
        .and.to.contain('npm run build:test-bundle')
        .and.to.contain('npm run build:tests')
        .and.to.contain('.ci/install-redis-server');
      expect(pkg.scripts.test).to.match(/^test\/node_modules\/\.bin\/mocha 'build\/test\/\*\*\/\*\.test\.js'/);
      // CI runs exactly these on a clean clone.
      const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8').split('\n');
      expect(ci).to.include('time npm ci').and.to.include('time npm run build').and.to.include('npm test');
    });

    it('`node dist/cli.js` in the clone, with nothing configured, serves MCP over stdio: the tools `mcp-devtools tools` lists', async () => {
      const session = await connectStdio({ cwd: REPO_ROOT, env: { MCP_TOOLSETS: '' } });
      try {
        const served = (await session.client.listTools()).tools.map((t) => t.name);
        const listed = await runCli(['tools', '--json'], { cwd: REPO_ROOT, env: { MCP_TOOLSETS: '' } });
        expect(served).to.deep.equal((JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name));
        // Nothing configured: no vendor has credentials, so the default tools leave each out, and say so once.
        expect(served.filter((name) => name !== 'artifact_read')).to.deep.equal([]);
        expect(
          await session.waitForStderr('default tools: serving no vendor; not github, circleci, jira, confluence, bitbucket, ci (no credentials configured)'),
        ).to.contain('MCP_TOOLSETS');
      } finally {
        await session.close();
      }
    });
  });

  describe('Install', () => {
    const install = section(README, 'Install');
    const lines = commandLines(codeBlocks(install)[0]!.code);

    it('names the tarball `npm pack` makes of this version, and installs that one', async () => {
      const tarball = (await packedFiles(stagePackage())).filename;
      expect(tarball).to.equal(`mcp-devtools-${pkg.version}.tgz`);
      expect(lines[0]).to.deep.include({ command: 'npm ci && npm run build && npm pack' });
      expect(lines[0]!.comment).to.match(new RegExp(`^${tarball.replace(/\./g, '\\.')}:`));
      expect(lines[1]!.command).to.equal(`npm install -g ./${tarball}`);
    });

    it('shows what the installed command prints: its version, and the tools table', async () => {
      expect(lines[2]).to.deep.equal({ command: 'mcp-devtools --version', comment: pkg.version });
      const version = await runCli(cliArgs(lines[2]!.command));
      expect(version.stdout).to.equal(`${pkg.version}\n`);
      expect(lines[3]!.command).to.equal('mcp-devtools tools');
      const tools = await runCli(cliArgs(lines[3]!.command), { env: { MCP_TOOLSETS: '' } });
      expect([tools.code, tools.stderr]).to.deep.equal([0, '']);
      expect(tools.stdout.split('\n')[0]).to.match(/^NAME +ACCESS +TOOLSET +TITLE$/);
    });
  });

  it('every `$ mcp-devtools tools ...` sample of README.md and docs/ is the output of that command', async () => {
    const samples = ['README.md', ...docsFiles()].flatMap((file) =>
      terminalSamples(readDoc(file))
        .filter((s) => s.command.startsWith('mcp-devtools tools'))
        .map((s) => ({ ...s, file })),
    );
    expect(samples.map((s) => s.file)).to.include('README.md');
    for (const sample of samples) {
      const ran = await runCli(cliArgs(sample.command), { env: { MCP_TOOLSETS: '' } });
      expect(`${sample.output}\n`, `${sample.file} line ${sample.line}: ${sample.command}`).to.equal(ran.stdout);
    }
  });

  it('the one-call example runs as written against GitHub, and prints the text', async () => {
    const mock = await MockUpstream.start();
    try {
      mock.on('GET', '/repos/acme/api/actions/runs', {
        body: { total_count: 1, workflow_runs: [{ id: 42, name: 'CI', status: 'completed', conclusion: 'success', head_branch: 'main' }] },
      });
      const example = /`(mcp-devtools call [^`]+)`/.exec(section(README, 'Add it to an MCP client'))![1]!;
      const ran = await runCli(cliArgs(example), { env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: canary('ghp_') } });
      expect([ran.code, ran.stderr]).to.deep.equal([0, '']);
      expect(ran.stdout).to.contain('42').and.to.contain('success');
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /repos/acme/api/actions/runs']);
      expect(mock.requests[0]!.query.get('per_page')).to.equal('5');
    } finally {
      await mock.close();
    }
  });

  it('shows the v2 MCP Inspector, whose command examples/inspector runs in CI with the version it pins', () => {
    const shown = [...README.matchAll(/`(npx @modelcontextprotocol\/inspector[^`]*)`/g)].map((m) => m[1]!);
    expect(shown.some((c) => c.startsWith('npx @modelcontextprotocol/inspector --cli node dist/cli.js --toolsets default --method tools/list'))).to.equal(true);
    expect(README).not.to.contain('inspector-cli');
    const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/inspector/package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(example.devDependencies['@modelcontextprotocol/inspector']).to.match(/^2\.\d+\.\d+$/);
    expect(readFileSync(join(REPO_ROOT, 'examples/inspector/test/readme-inspector.test.js'), 'utf8')).to.contain("join(root, 'README.md')");
  });

  it("the configuration table's settings exist, with the defaults it gives", async () => {
    const settings = new Map((await allSettings()).map((s) => [s.key, s]));
    const table = section(README, 'Configuration reference');
    const rows = [...table.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \| ([^|]*) \|/gm)];
    expect(rows.length).to.be.greaterThan(10);
    for (const [, keysCell, defaultsCell] of rows) {
      const keys = [...keysCell!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
      const defaults = [...defaultsCell!.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);
      for (const key of keys) expect(settings.has(key), `${key} is not a setting`).to.equal(true);
      const actual = keys.map((k) => String((settings.get(k)!.schema as { default?: unknown }).default ?? ''));
      if (defaults.length === keys.length) expect(defaults, keys.join(', ')).to.deep.equal(actual);
      else for (const d of defaults) expect(actual, `${keys.join(', ')}: default ${d}`).to.include(d);
    }
  });
});
