import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { CLI_PATH } from '../support/paths.js';
import { withoutRuntimeNotice } from '../support/run-cli.js';
import { isolatedEnv } from '../support/sdk-client.js';

const run = promisify(execFile);
const SECRET = 'cli-secret-token-9876543210';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const cwd = mkdtempSync(join(tmpdir(), 'cli-e2e-'));
  writeFileSync(join(cwd, 'mcp-devtools.config.json'), fixtureConfig().content);
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI_PATH, ...args], { cwd, env: isolatedEnv(env, cwd) });
    return { code: 0, stdout, stderr: withoutRuntimeNotice(stderr) };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: withoutRuntimeNotice(e.stderr) };
  }
}

describe('mcp-devtools CLI', () => {
  let mock: MockUpstream;
  before(async () => (mock = await MockUpstream.start()));
  after(async () => mock.close());

  it('call prints the text of a successful call and exits 0', async () => {
    mock.on('GET', '/ok', { body: { runs: [{ id: 1, status: 'completed' }] } });
    const ran = await cli(['call', 'fixture_get', '{"path":"/ok"}'], { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: SECRET });
    expect(ran).to.include({ code: 0, stdout: 'runs[1]{id,status}:\n  1,completed\n' });
  });

  it('call --structured prints the whole MCP result as JSON, and exits 1 on an error result', async () => {
    mock.on('GET', '/gone', { status: 410, body: { message: 'gone' } });
    const ran = await cli(['call', 'fixture_get', '{"path":"/gone"}', '--structured'], { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: SECRET });
    expect(ran.code).to.equal(1);
    const result = JSON.parse(ran.stdout) as { isError: boolean; content: Array<{ text: string }> };
    expect(result.isError).to.equal(true);
    expect(result.content[0]?.text).to.contain('HTTP Status: 410');
  });

  it('call refuses arguments that are not a JSON object, saying what to pass', async () => {
    const ran = await cli(['call', 'fixture_get', '[1,2]']);
    expect(ran.code).to.equal(1);
    expect(ran.stderr).to.contain('mcp-devtools: The arguments must be a JSON object.');
  });

  it('config prints every setting with its source, secrets masked', async () => {
    const ran = await cli(['config', '--json', '--set', 'MCP_UPSTREAM_RETRIES=4'], { FIXTURE_TOKEN: SECRET });
    expect(ran.code).to.equal(0);
    expect(ran.stdout).not.to.contain(SECRET);
    const printed = JSON.parse(ran.stdout) as { settings: Array<{ key: string; value: unknown; source: string }> };
    const at = (k: string) => printed.settings.find((s) => s.key === k);
    expect(at('FIXTURE_TOKEN')).to.deep.include({ value: '********', source: 'environment' });
    expect(at('MCP_UPSTREAM_RETRIES')).to.deep.include({ value: 4, source: 'command line' });
    expect(at('MCP_TRANSPORT')).to.deep.include({ value: 'stdio', source: 'default' });
  });

  it('fails start-up with one clear line and exit 1 on a bad setting', async () => {
    const ran = await cli(['config'], { MCP_STORE_URL: 'ftp://nowhere' });
    expect(ran.code).to.equal(0); // config only resolves settings; it does not open the store
    const served = await cli(['call', 'fixture_get', '{"path":"/x"}'], { MCP_STORE_URL: 'ftp://nowhere' });
    expect(served.code).to.equal(1);
    expect(served.stderr.trim()).to.equal(
      'mcp-devtools: MCP_STORE_URL=ftp://nowhere: unsupported scheme "ftp:". Use memory://, sqlite:///absolute/path.db or redis://host:port/db (rediss:// for TLS).',
    );
  });
});
