// The sqlite:// store needs SQLite's native module, which the clone's `npm ci` leaves unbuilt (package.json
// allowScripts: compiling it takes longer than the rest of the install) and an install whose npm skipped install
// scripts lacks too. A server asked for that store then says what to run, instead of a crash with a stack trace.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { BUNDLE_DIR, REPO_ROOT } from '../support/paths.js';

/**
 * A folder with the bundle as dist/ and node_modules as `npm ci` leaves it: links to the repository's packages,
 * except copies of the SQLite adapter and of sqlite3 without its build (a link would resolve sqlite3 from the
 * repository, where the tests have built it).
 */
function cloneWithoutNativeSqlite(): string {
  const folder = mkdtempSync(join(tmpdir(), 'unbuilt-sqlite-'));
  const modules = join(folder, 'node_modules');
  const rootModules = join(REPO_ROOT, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(rootModules)) {
    if (entry.startsWith('.') || entry === 'sqlite3' || entry === '@keyv') continue;
    symlinkSync(join(rootModules, entry), join(modules, entry));
  }
  cpSync(join(rootModules, '@keyv'), join(modules, '@keyv'), { recursive: true });
  cpSync(join(rootModules, 'sqlite3'), join(modules, 'sqlite3'), { recursive: true, filter: (source) => !source.includes('/sqlite3/build') });
  cpSync(BUNDLE_DIR, join(folder, 'dist'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  return folder;
}

function run(folder: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(folder, 'dist/cli.js'), ...args], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', HOME: folder, MCP_STORE_URL: `sqlite://${join(folder, 'state/store.db')}`, LOG_FORMAT: 'json' },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const err: Buffer[] = [];
  child.stderr.on('data', (c: Buffer) => err.push(c));
  child.stdin.end();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8') })));
}

describe('MCP_STORE_URL=sqlite:// without SQLite’s native module built', function () {
  this.timeout(60_000);
  let folder: string;
  before(() => (folder = cloneWithoutNativeSqlite()));

  for (const args of [[], ['approvals', 'list']]) {
    it(`\`mcp-devtools ${args.join(' ') || '(serve over stdio)'}\` refuses to start and says how to build it`, async () => {
      const { code, stderr } = await run(folder, args);
      expect(code).to.equal(1);
      const last = stderr.trimEnd().split('\n').at(-1)!;
      expect(last)
        .to.match(/^mcp-devtools: MCP_STORE_URL=sqlite:\/\/\S+: SQLite's native module \(the sqlite3 package\) is not built/)
        .and.to.contain('npm run build:sqlite')
        .and.to.contain('npm rebuild sqlite3');
      expect(stderr).not.to.match(/^\s+at /m);
    });
  }
});
