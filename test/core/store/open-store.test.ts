import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { openStore } from '../../../core/store/open-store.js';
import { rejection } from '../../support/async.js';
import { isolatedEnv } from '../../support/sdk-client.js';
import { CLI_PATH } from '../../support/paths.js';
import { startRedisServer } from '../../support/redis.js';
import { sqliteFile } from '../../support/store-backends.js';
import { startTestKernel } from '../../support/test-kernel.js';

async function startupFailure(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error).to.be.instanceOf(StartupError);
  return error.message;
}

/** Runs the bundled CLI to the end: its exit code and stderr. */
async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string; stdout: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-cwd-'));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_PATH, ...args], { cwd, env: isolatedEnv(env, cwd), timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('Opening the store named by MCP_STORE_URL', () => {
  const cases: Array<[string, string, string]> = [
    [
      'a value that is not a URL',
      'localhost:6379',
      'MCP_STORE_URL=localhost:6379: unsupported scheme "localhost:". Use memory://, sqlite:///absolute/path.db or redis://host:port/db (rediss:// for TLS).',
    ],
    ['a bare word', 'redis', 'MCP_STORE_URL=redis is not a URL. Use memory://'],
    ['an unknown scheme', 'postgres://db/store', 'MCP_STORE_URL=postgres://db/store: unsupported scheme "postgres:"'],
    [
      'a relative SQLite path',
      'sqlite://data/store.db',
      'MCP_STORE_URL=sqlite://data/store.db: give the absolute path of the database file after sqlite:// (three slashes in all)',
    ],
    ['a SQLite URL with options', 'sqlite:///tmp/x.db?mode=ro', 'MCP_STORE_URL=sqlite:///tmp/x.db?mode=ro: a sqlite URL takes no query or fragment'],
    [
      'a Redis path that is not a database number',
      'redis://:pw@127.0.0.1:1/cache',
      'MCP_STORE_URL=redis://:***@127.0.0.1:1/cache: the path must be a database number (redis://host:6379/0), not "/cache".',
    ],
  ];
  for (const [what, url, message] of cases) {
    it(`fails start-up on ${what}, saying what to write instead`, async () => {
      expect(await startupFailure(openStore(url))).to.contain(message);
    });
  }

  it('fails start-up on a SQLite path that is a directory', async () => {
    const dir = sqliteFile('a-directory');
    mkdirSync(dir);
    expect(await startupFailure(openStore(`sqlite://${dir}`))).to.equal(`MCP_STORE_URL=sqlite://${dir}: ${dir} is not a file.`);
  });

  it('fails start-up on a file that is not a SQLite database, and leaves it untouched', async () => {
    const path = sqliteFile('notes.txt');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    const message = await startupFailure(openStore(`sqlite://${path}`));
    expect(message).to.match(new RegExp(`^MCP_STORE_URL=sqlite://${path}: .*file is not a database`));
  });

  it('refuses an MCP_STORE_NAMESPACE that could overlap another deployment', async () => {
    expect(await startupFailure(openStore('memory://', { namespace: 'team:a' }))).to.contain('MCP_STORE_NAMESPACE="team:a" must be 1-64 letters, digits');
  });

  it('fails the kernel start naming the setting, and the namespace setting is validated by the cascade', async () => {
    expect(await startupFailure(startTestKernel({ env: { MCP_STORE_URL: 'sqlite://relative.db' } }))).to.contain('MCP_STORE_URL=sqlite://relative.db');
    expect(await startupFailure(startTestKernel({ env: { MCP_STORE_NAMESPACE: 'two words' } }))).to.contain(
      'Setting MCP_STORE_NAMESPACE="two words" from environment',
    );
  });

  it('starts the kernel on each store it is given', async () => {
    const redis = await startRedisServer();
    try {
      for (const [url, kind] of [
        ['memory://', 'memory'],
        [`sqlite://${sqliteFile()}`, 'sqlite'],
        [redis.url, 'redis'],
      ]) {
        const kernel = await startTestKernel({ env: { MCP_STORE_URL: url!, MCP_STORE_NAMESPACE: 'kernel-start' } });
        await kernel.close();
        expect(kernel.logs.map((line) => JSON.parse(line) as { msg: string; store?: string }).find((l) => l.msg === 'kernel started')?.store).to.equal(kind);
      }
    } finally {
      await redis.stop();
    }
  });

  it('makes the server exit with the reason, and without the password, when Redis is down', async () => {
    const redis = await startRedisServer({ password: 'cli-secret-pw' });
    await redis.kill();
    const { code, stderr } = await runCli(['--transport', 'http', '--port', '0'], { MCP_STORE_URL: redis.url });
    expect(code).to.equal(1);
    // The server's stderr is a log stream: the reason is its last JSON line, at the fatal level, and then the
    // same reason as one plain sentence for a person.
    const lines = stderr.trim().split('\n');
    expect(lines.at(-1)).to.match(/^mcp-devtools: MCP_STORE_URL=redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0: cannot connect to Redis/);
    const last = JSON.parse(lines.at(-2)!) as { level: number; msg: string };
    expect(last.level).to.equal(60);
    expect(last.msg).to.contain(`MCP_STORE_URL=redis://:***@127.0.0.1:${redis.port}/0: cannot connect to Redis: connect ECONNREFUSED`);
    expect(stderr).not.to.contain('cli-secret-pw');
  });

  it('shows the store URL in `mcp-devtools config` with the password masked', async () => {
    const { code, stdout } = await runCli(['config', '--json'], { MCP_STORE_URL: 'rediss://app:p%40ss-word@cache.internal:6380/2' });
    expect(code).to.equal(0);
    const settings = (JSON.parse(stdout) as { settings: Array<{ key: string; value: unknown }> }).settings;
    expect(settings.find((s) => s.key === 'MCP_STORE_URL')?.value).to.equal('rediss://app:***@cache.internal:6380/2');
    expect(stdout).not.to.contain('p%40ss-word');
  });
});
