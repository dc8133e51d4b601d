import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const HELPER = resolve(dirname(fileURLToPath(import.meta.url)), '../../support/redis.js');

// `npm test` on a developer's machine: the suite starts its own Redis, or says how to get one.
describe('The Redis the tests use (test/support/redis.ts)', () => {
  it('tells a developer without redis-server how to install it', async () => {
    const script = `import(${JSON.stringify(HELPER)}).then((m) => m.sharedRedisUrl()).then((url) => console.log(url), (e) => { console.error(e.message); process.exit(3); })`;
    let failure: { code?: number; stderr?: string } = {};
    try {
      await promisify(execFile)(process.execPath, ['-e', script], { env: { PATH: '/nonexistent' } });
    } catch (error) {
      failure = error as typeof failure;
    }
    expect(failure.code).to.equal(3);
    expect(failure.stderr).to.contain('install redis-server (apt-get install redis-server), or set MCP_TEST_REDIS_URL');
  });

  it('starts a real redis-server on a free loopback port when no URL is given', async () => {
    const script = `import(${JSON.stringify(HELPER)}).then((m) => m.sharedRedisUrl()).then((url) => { console.log(url); process.exit(0); })`;
    // No MCP_TEST_REDIS_URL; the run's TMPDIR, so the server's data folder goes with the run's (run-temp.ts).
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', TMPDIR: tmpdir() } });
    expect(stdout.trim()).to.match(/^redis:\/\/127\.0\.0\.1:\d+\/0$/);
  });
});
