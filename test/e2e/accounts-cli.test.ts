import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { MockUpstream } from '../../server/testing/mock-upstream.js';
import { ScratchDirs } from '../../server/testing/scratch-dirs.js';
import { dataCenterMocks } from '../support/identity/data-center-mocks.js';
import { GithubOAuthMock } from '../support/identity/github-oauth-mock.js';
import { sqliteBytes } from '../support/identity/vault-fixture.js';
import { CLI_PATH } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { isolatedEnv } from '../support/sdk-client.js';

const PAT = 'circleci-personal-token-cli-0f3b9e71';
const APP = { clientId: 'Iv1.cli-device-client', clientSecret: '', type: 'oauth-app' as const, deviceInterval: 1 };

describe('mcp-devtools accounts (a local server: connect, list, disconnect, rotate-key)', function () {
  this.timeout(60_000);
  let circleci: MockUpstream;
  let github: GithubOAuthMock;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    circleci = await dataCenterMocks({ jira: 'x-unused-1', confluence: 'x-unused-2', bitbucket: 'x-unused-3', circleci: PAT });
    github = await GithubOAuthMock.start(APP);
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-accounts-cli-'));
    env = {
      MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}`,
      MCP_VAULT_KEY: randomBytes(32).toString('base64'),
      CIRCLECI_BASE_URL: circleci.url,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_OAUTH_CLIENT_ID: APP.clientId,
    };
  });
  after(async () => {
    await circleci?.close();
    await github?.close();
  });

  it('connects CircleCI with a personal token read from stdin (validated with one read), lists it, and keeps it sealed', async () => {
    const connected = await runCli(['accounts', 'connect', 'circleci'], { env, stdin: `${PAT}\n` });
    expect(connected.code, connected.stderr).to.equal(0);
    expect(connected.stdout).to.match(/^Linked: CircleCI: alice, site http:\/\/127\.0\.0\.1:\d+, does not expire, last used /);
    const listed = await runCli(['accounts', 'list'], { env });
    expect(listed.stdout).to.match(/^CircleCI: alice, /);
    for (const out of [connected.stdout, connected.stderr, listed.stdout, listed.stderr]) expect(out).not.to.include(PAT);
    expect(sqliteBytes(join(dir, 'store.db'))).not.to.include(PAT);
  });

  it('refuses a personal token the vendor does not accept, keeping nothing', async () => {
    const refused = await runCli(['accounts', 'connect', 'circleci', '--as', 'bob'], { env, stdin: 'not-the-token\n' });
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('CircleCI refused the personal access token; check it and enter it again (HTTP_401).');
    expect((await runCli(['accounts', 'list', '--as', 'bob'], { env })).stdout).to.equal('No linked accounts for bob.\n');
  });

  it('links GitHub by device code: the code is shown, the person enters it at GitHub, the command finishes linked', async () => {
    const scratch = new ScratchDirs();
    const child = spawn(process.execPath, [CLI_PATH, 'accounts', 'connect', 'github'], {
      cwd: dir,
      env: isolatedEnv(env, dir, scratch),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const entered = new Promise<void>((resolve) =>
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        const code = /enter the code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(stderr)?.[1];
        if (code !== undefined) {
          github.enterUserCode(code, 'alice-gh');
          resolve();
        }
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await entered;
    expect(await exited, stderr).to.equal(0);
    scratch.remove();
    expect(stdout).to.match(/^Linked: GitHub: alice-gh, /);
    expect(stderr).to.match(/Open http:\/\/127\.0\.0\.1:\d+\/login\/device and enter the code/);
  });

  it('disconnects GitHub, revoking nothing it cannot (a device-only app has no secret to revoke with)', async () => {
    const out = await runCli(['accounts', 'disconnect', 'github'], { env });
    expect(out.stdout, out.stderr).to.equal('Disconnected GitHub.\n');
    expect((await runCli(['accounts', 'list'], { env })).stdout).not.to.include('GitHub');
  });

  it('rotate-key re-wraps every record; afterwards the old key no longer opens the store, the new one does', async () => {
    const newKey = randomBytes(32).toString('hex');
    const keyFile = join(dir, 'new.key');
    writeFileSync(keyFile, `${newKey}\n`);
    const rotated = await runCli(['accounts', 'rotate-key'], { env: { ...env, MCP_VAULT_NEW_KEY_FILE: keyFile } });
    expect(rotated.code, rotated.stderr).to.equal(0);
    expect(rotated.stdout).to.match(/: 1 re-wrapped, 0 already moved, 0 gone, 0 unreadable\./);
    const old = await runCli(['accounts', 'list'], { env });
    expect(old.code).to.not.equal(0);
    expect(old.stderr).to.match(/does not open the linked accounts in the store/);
    const fresh = await runCli(['accounts', 'list'], { env: { ...env, MCP_VAULT_KEY: newKey } });
    expect(fresh.stdout, fresh.stderr).to.match(/^CircleCI: alice, /);
  });

  it('refuses to link into memory://, which would forget the link when the command ends', async () => {
    const out = await runCli(['accounts', 'list'], { env: { ...env, MCP_STORE_URL: 'memory://' } });
    expect(out.code).to.not.equal(0);
    expect(out.stderr).to.include('Linked accounts are kept in the store the server reads');
  });
});
