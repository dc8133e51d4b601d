// README's two lines side by side: a server started with the first (`node dist/cli.js`) keeps answering while
// the second (`npm test`) builds, because the tests bundle into build/dist and never touch dist/. The server
// loads some chunks only when first needed (the upstream client, JMESPath), so a build that replaced dist/
// under it would fail its next calls, as `npm test` once did for about 90 seconds. It runs a whole rollup build
// (about 90 s on 2 cores), so it lives with the package tests (`npm run test:package`, CI's lane after `npm test`).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { sleep } from '../support/async.js';
import { canary } from '../support/canaries.js';
import { BUNDLE_DIR, REPO_ROOT } from '../support/paths.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';

const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The scripts `npm test` runs: pretest and test, and every `npm run NAME` they name, recursively. */
function scriptsOfNpmTest(): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || scripts[name] === undefined) return;
    seen.add(name);
    for (const [, next] of scripts[name]!.matchAll(/npm run ([\w:-]+)/g)) visit(next!);
  };
  visit('pretest');
  visit('test');
  return [...seen];
}

/** Every file below `dir` with the SHA-256 of its bytes. */
function fingerprints(dir: string, base = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, fingerprints(path, base));
    else out[path.slice(base.length + 1)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

describe('`npm test` beside a server running from dist/', function () {
  this.timeout(600_000);

  it('no script `npm test` runs writes or removes dist/: the bundle it tests goes to build/dist', () => {
    const ran = scriptsOfNpmTest();
    expect(ran).to.include.members(['pretest', 'test', 'build:test-bundle', 'build:tests']);
    expect(ran).not.to.include('build');
    for (const name of ran) {
      const text = scripts[name]!.replaceAll('build/dist', '');
      expect(text, `${name}: ${scripts[name]}`).not.to.match(/(^|[\s'"/])dist\b/);
      if (/\brollup\b/.test(text)) expect(scripts[name], name).to.contain('--configOutDir build/dist');
    }
  });

  describe('a clone with dist/ built and a server on it, while the test bundle builds', () => {
    let clone: string;
    let mock: MockUpstream;
    let session: StdioSession;
    let before: Record<string, string>;

    // The clone: the sources and build configuration as committed, the repository's node_modules, and as its
    // dist/ what `npm run build` makes of these sources (this run's bundle: the same rollup configuration).
    beforeEach(async () => {
      clone = mkdtempSync(join(tmpdir(), 'clone-'));
      for (const entry of ['package.json', 'rollup.config.mjs', 'tsconfig.json', 'core', 'plugins', 'server'])
        cpSync(join(REPO_ROOT, entry), join(clone, entry), { recursive: true });
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'));
      cpSync(BUNDLE_DIR, join(clone, 'dist'), { recursive: true });
      before = fingerprints(join(clone, 'dist'));
      mock = await MockUpstream.start();
      mock.on('GET', '/repos/acme/api/actions/runs', {
        body: { total_count: 1, workflow_runs: [{ id: 42, name: 'CI', status: 'completed', conclusion: 'success', head_branch: 'main' }] },
      });
      session = await connectStdio({
        cliPath: join(clone, 'dist/cli.js'),
        env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: canary('ghp_'), MCP_TOOLSETS: 'github.actions' },
      });
      // Nothing has reached a vendor yet: the upstream client's and JMESPath's chunks are still unloaded.
      expect((await session.client.listTools()).tools.map((t) => t.name)).to.include('github_list_workflow_runs');
    });
    afterEach(async () => {
      await session?.close();
      await mock?.close();
    });

    it('answers every call made during the build, loading its lazy chunks then, and dist/ is byte for byte as it was', async () => {
      const build = spawn('npm', ['run', 'build:test-bundle'], { cwd: clone, stdio: ['ignore', 'ignore', 'pipe'] });
      const buildErrors: string[] = [];
      build.stderr.on('data', (chunk: Buffer) => buildErrors.push(chunk.toString('utf8')));
      const built = new Promise<number | null>((resolve) => build.once('exit', (code) => resolve(code)));
      let building = true;
      void built.then(() => (building = false));

      const answers: string[] = [];
      const call = async (jq: string): Promise<void> => {
        const result = (await session.client.callTool({ name: 'github_list_workflow_runs', arguments: { owner: 'acme', repo: 'api', jq } })) as CallToolResult;
        answers.push(result.isError ? `error: ${JSON.stringify(result.content)}` : (result.content[0] as { text: string }).text);
      };
      // The first calls once the build has begun: they load the chunks a server loads on first use.
      await sleep(1000);
      let during = 0;
      while (building) {
        await call('workflow_runs[0].conclusion');
        during++;
        await sleep(1000);
      }
      expect(await built, buildErrors.join('')).to.equal(0);
      await call('workflow_runs[0].id');

      expect(during, 'calls made while the build ran').to.be.at.least(3);
      expect(answers.slice(0, -1).filter((a) => a !== 'nextPage: null\ndata: success')).to.deep.equal([]);
      expect(answers.at(-1)).to.equal('nextPage: null\ndata: 42');
      expect(fingerprints(join(clone, 'dist'))).to.deep.equal(before);
      expect(existsSync(join(clone, 'build/dist/cli.js'))).to.equal(true);
    });
  });
});
