import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { resolveConfig, type Invocation } from '../../../server/bootstrap/resolve-config.js';
import { FIXTURE_PLUGIN_PATH } from '../../support/fixture-plugin.js';

function dirs(): { cwd: string; home: string } {
  return { cwd: mkdtempSync(join(tmpdir(), 'cfg-cwd-')), home: mkdtempSync(join(tmpdir(), 'cfg-home-')) };
}

async function resolve(inv: Partial<Invocation> & { cwd: string; home: string }) {
  return resolveConfig({ env: {}, ...inv });
}

async function failure(inv: Partial<Invocation> & { cwd: string; home: string }): Promise<string> {
  try {
    await resolve(inv);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected start-up to fail');
}

describe('configuration cascade', () => {
  it('takes flags over environment over .env over ~/.mcp/configs.json over the config file over defaults', async () => {
    const { cwd, home } = dirs();
    const config = {
      plugins: [FIXTURE_PLUGIN_PATH],
      settings: { FIXTURE_BASE_URL: 'http://file', MCP_REQUEST_TIMEOUT_MS: 1000, MCP_UPSTREAM_RETRIES: 5, LOG_LEVEL: 'warn', MCP_HTTP_PORT: 4001 },
    };
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify(config));
    mkdirSync(join(home, '.mcp'));
    writeFileSync(
      join(home, '.mcp', 'configs.json'),
      JSON.stringify({
        fixture: { environments: { FIXTURE_BASE_URL: 'http://configs', FIXTURE_TOKEN: 'tok-from-configs' } },
        'mcp-devtools': { environments: { MCP_UPSTREAM_RETRIES: '4', LOG_LEVEL: 'error', MCP_REQUEST_TIMEOUT_MS: '2000' } },
      }),
    );
    writeFileSync(join(cwd, '.env'), 'FIXTURE_BASE_URL=http://dotenv\nMCP_UPSTREAM_RETRIES=3\n');
    const { settings } = await resolve({ cwd, home, env: { FIXTURE_BASE_URL: 'http://env' }, flags: { LOG_LEVEL: 'debug' } });
    const at = (key: string) => settings.entries().find((e) => e.key === key)!;
    expect(at('LOG_LEVEL')).to.include({ value: 'debug', source: 'command line' });
    expect(at('FIXTURE_BASE_URL')).to.include({ value: 'http://env', source: 'environment' });
    expect(at('MCP_UPSTREAM_RETRIES')).to.include({ value: 3, source: '.env' });
    expect(at('MCP_REQUEST_TIMEOUT_MS')).to.include({ value: 2000, source: '~/.mcp/configs.json (mcp-devtools)' });
    expect(at('FIXTURE_TOKEN')).to.include({ value: 'tok-from-configs', source: '~/.mcp/configs.json (fixture)' });
    expect(at('MCP_HTTP_PORT').value).to.equal(4001);
    expect(at('MCP_HTTP_PORT').source).to.match(/^config file .*mcp-devtools\.config\.json$/);
    expect(at('MCP_MAX_RESPONSE_BYTES')).to.include({ value: 33554432, source: 'default' });
  });

  it('reads a plugin only from its own sections of ~/.mcp/configs.json', async () => {
    const { cwd, home } = dirs();
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [FIXTURE_PLUGIN_PATH] }));
    mkdirSync(join(home, '.mcp'));
    writeFileSync(join(home, '.mcp', 'configs.json'), JSON.stringify({ jira: { environments: { FIXTURE_TOKEN: 'from-the-wrong-section' } } }));
    const { settings } = await resolve({ cwd, home });
    expect(settings.get('FIXTURE_TOKEN')).to.equal('');
  });

  it('reads a YAML config file named by MCP_DEVTOOLS_CONFIG, resolving plugin paths against it', async () => {
    const { cwd, home } = dirs();
    const other = mkdtempSync(join(tmpdir(), 'cfg-other-'));
    writeFileSync(join(other, 'team.yaml'), `plugins:\n  - ${FIXTURE_PLUGIN_PATH}\nsettings:\n  MCP_READ_ONLY: true\n`);
    const { settings, plugins } = await resolve({ cwd, home, env: { MCP_DEVTOOLS_CONFIG: join(other, 'team.yaml') } });
    expect(settings.get('MCP_READ_ONLY')).to.equal(true);
    expect(plugins.map((p) => p.name)).to.include('FixtureVendorPlugin');
    expect(plugins.map((p) => p.name)).not.to.include('GithubPlugin');
  });

  it('loads every built-in vendor when there is no config file', async () => {
    const { cwd, home } = dirs();
    const { plugins, config } = await resolve({ cwd, home });
    expect(config.path).to.equal(undefined);
    expect(plugins.map((p) => p.name)).to.include.members(['GithubPlugin', 'CircleciPlugin', 'JiraPlugin', 'ConfluencePlugin', 'BitbucketPlugin']);
  });

  it('fails start-up naming an unknown key of the config file', async () => {
    const { cwd, home } = dirs();
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['github'], plugin: ['oops'] }));
    expect(await failure({ cwd, home })).to.match(/unknown key "plugin"/);
  });

  it('fails start-up naming an unknown setting given in the config file or on the command line', async () => {
    const { cwd, home } = dirs();
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ settings: { MCP_REQUEST_TIMEOUT: 5 } }));
    expect(await failure({ cwd, home })).to.match(/Unknown setting "MCP_REQUEST_TIMEOUT" in config file/);
    const clean = dirs();
    expect(await failure({ ...clean, flags: { NOPE: '1' } })).to.match(/Unknown setting "NOPE" in a command-line flag/);
  });

  it('fails start-up naming a bad value and where it came from', async () => {
    const { cwd, home } = dirs();
    expect(await failure({ cwd, home, env: { MCP_REQUEST_TIMEOUT_MS: '1.5' } })).to.equal(
      'Setting MCP_REQUEST_TIMEOUT_MS="1.5" from environment must be integer.',
    );
    expect(await failure({ cwd, home, env: { MCP_TRANSPORT: 'carrier-pigeon' } })).to.match(/^Setting MCP_TRANSPORT="carrier-pigeon" from environment/);
    expect(await failure({ cwd, home, env: { MCP_READ_ONLY: 'maybe' } })).to.match(/MCP_READ_ONLY="maybe" from environment must be boolean/);
  });

  it('never shows a secret value in a start-up error', async () => {
    const { cwd, home } = dirs();
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [FIXTURE_PLUGIN_PATH], settings: { FIXTURE_TOKEN: 12345 } }));
    const message = await failure({ cwd, home });
    expect(message).to.contain('FIXTURE_TOKEN=(secret)');
    expect(message).not.to.contain('12345');
  });

  it('fails start-up for a plugin that cannot be found, naming it', async () => {
    const { cwd, home } = dirs();
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['./nowhere.js'] }));
    expect(await failure({ cwd, home })).to.equal(
      `Plugin "./nowhere.js" cannot be found: ${join(cwd, 'nowhere.js')} does not exist. Built-in plugins: github, circleci, jira, confluence, bitbucket, ci; others are module paths (./my-plugin.js) or installed packages.`,
    );
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['@acme/not-installed'] }));
    expect(await failure({ cwd, home })).to.match(/^Plugin "@acme\/not-installed" cannot be found/);
  });

  it('fails start-up for a config file that does not parse', async () => {
    const { cwd, home } = dirs();
    writeFileSync(join(cwd, 'mcp-devtools.config.yaml'), 'plugins: [github\n');
    expect(await failure({ cwd, home })).to.match(/mcp-devtools\.config\.yaml does not parse/);
  });
});
