// What a new user sees when they get something wrong, through the built CLI: each message names the mistake
// and what to do about it, and none shows a file of ours.
import { createServer as createHttpsServer, type Server } from 'node:https';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { freePort } from '../support/free-port.js';
import { runCli, type CliRun } from '../support/run-cli.js';
import { makeTlsFiles, opensslAvailable } from '../support/tls-files.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'cli-help-'));
/** The first line of an error result's text, as `call` prints it. */
const firstLine = (ran: CliRun): string => ran.stdout.split('\n')[0]!;

describe('CLI help for mistakes', () => {
  it('an unknown command says so, suggests the nearest and lists the commands', async () => {
    const ran = await runCli(['tols']);
    expect(ran.code).to.equal(1);
    expect(ran.stderr.trim()).to.equal(
      'mcp-devtools: unknown command "tols". Did you mean "tools"? Commands: serve, tools, call, config, auth, policy, approvals, audit, accounts (mcp-devtools --help says what each does).',
    );
  });

  it('a setting with fixed choices lists the values it allows', async () => {
    const level = await runCli(['config'], { env: { LOG_LEVEL: 'verbose' } });
    expect(level.stderr.trim()).to.equal(
      'mcp-devtools: Setting LOG_LEVEL="verbose" from environment is not one of the allowed values: trace, debug, info, warn, error, fatal, silent.',
    );
    // `serve` writes a log stream: its reason for not starting is a fatal JSON line too, before the sentence.
    const transport = await runCli(['--transport', 'sse']);
    expect(transport.code).to.equal(1);
    const [fatal, sentence] = transport.stderr.trim().split('\n');
    const reason = 'Setting MCP_TRANSPORT="sse" from command line is not one of the allowed values: stdio, http.';
    expect(JSON.parse(fatal!)).to.deep.include({ level: 60, name: 'mcp-devtools', msg: reason });
    expect(sentence).to.equal(`mcp-devtools: ${reason}`);
  });

  it('an unknown setting suggests the nearest one', async () => {
    const ran = await runCli(['config', '--set', 'MCP_READONLY=true']);
    expect(ran.stderr).to.contain('Unknown setting "MCP_READONLY" in a command-line flag. Did you mean "MCP_READ_ONLY"?');
  });

  it('an unknown tool suggests the nearest names, or says what hides it or which plugin has it', async () => {
    const typo = await runCli(['call', 'jira_gte', '{}']);
    expect(typo.code).to.equal(1);
    expect(typo.stderr).to.contain('mcp-devtools: Unknown tool: jira_gte. Did you mean "jira_get"? `mcp-devtools tools` lists the tools served.');
    const hidden = await runCli(['call', 'jira_post', '{}', '--read-only']);
    expect(hidden.stderr).to.contain('mcp-devtools: Unknown tool: jira_post: this server has it, but MCP_READ_ONLY=true hides it (it can change things).');
    const dir = tempDir();
    writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['github'] }));
    const unloaded = await runCli(['call', 'jira_get', '{}'], { cwd: dir });
    expect(unloaded.stderr).to.contain(
      `mcp-devtools: Unknown tool: jira_get: it belongs to the built-in plugin "jira", which the config file ${join(dir, 'mcp-devtools.config.json')} does not load. Add "jira" to its "plugins".`,
    );
  });

  it('a 401 names the setting that holds the token', async () => {
    const mock = await MockUpstream.start();
    try {
      mock.on('GET', '/user', { status: 401, body: { message: 'Bad credentials' } });
      const ran = await runCli(['call', 'github_get', '{"path":"/user"}'], { env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: canary('ghp_') } });
      expect(ran.code).to.equal(1);
      expect(firstLine(ran)).to.equal(
        'Error: GitHub answered 401 Unauthorized for GET /user. The credentials were not accepted: check GITHUB_TOKEN (a valid token, not expired or revoked).',
      );
    } finally {
      await mock.close();
    }
  });

  it('a connection that fails shows its cause: refused, a name that does not resolve', async () => {
    const env = { GITHUB_TOKEN: canary('ghp_'), MCP_UPSTREAM_RETRIES: '0' };
    const port = await freePort();
    const refused = await runCli(['call', 'github_get', '{"path":"/user"}'], { env: { ...env, GITHUB_API_URL: `http://127.0.0.1:${port}` } });
    expect(firstLine(refused)).to.equal(
      `Error: GitHub could not be reached for GET /user (ECONNREFUSED): nothing accepts connections at that address (connection refused). Check http://127.0.0.1:${port} is reachable, then try again.`,
    );
    const unresolved = await runCli(['call', 'github_get', '{"path":"/user"}'], { env: { ...env, GITHUB_API_URL: 'https://no-such-host.invalid' } });
    // A machine without a resolver answers EAI_AGAIN rather than ENOTFOUND: either way, the cause is named.
    expect(firstLine(unresolved)).to.match(
      /^Error: GitHub could not be reached for GET \/user \((ENOTFOUND|EAI_AGAIN)\): the host name (does not resolve|could not be resolved)/,
    );
  });

  it('a certificate that is not trusted is named as such, with what to do for a private CA', async function () {
    if (!opensslAvailable()) this.skip();
    const tls = makeTlsFiles();
    const server: Server = createHttpsServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
      const ran = await runCli(['call', 'github_get', '{"path":"/user"}'], {
        env: { GITHUB_API_URL: origin, GITHUB_TOKEN: canary('ghp_'), MCP_UPSTREAM_RETRIES: '0' },
      });
      // Node 24 adds its own hint to the reason (--use-system-ca); Node 22 gives the reason alone.
      expect(firstLine(ran)).to.match(
        /^Error: GitHub could not be reached for GET \/user \(certificate: UNABLE_TO_VERIFY_LEAF_SIGNATURE\): the TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not accepted \(unable to verify the first certificate(; [^()]*)?\)\. If it is signed by a private CA, start the server with NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem\.$/,
      );
      const trusted = await runCli(['call', 'github_get', '{"path":"/user"}'], {
        env: { GITHUB_API_URL: origin, GITHUB_TOKEN: canary('ghp_'), NODE_EXTRA_CA_CERTS: tls.caFile },
      });
      expect(trusted.code, trusted.stdout).to.equal(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a base URL that is not a URL names its setting', async () => {
    const github = await runCli(['call', 'github_get', '{"path":"/user"}'], { env: { GITHUB_API_URL: 'api.github.example.com' } });
    expect(github.code).to.equal(1);
    expect(github.stderr.trim()).to.equal(
      'mcp-devtools: GITHUB_API_URL="api.github.example.com" is not a URL: give the GitHub API\'s base URL with its scheme, such as https://host.example.com.',
    );
    const jira = await runCli(['tools'], { env: { JIRA_BASE_URL: 'ftp://jira.example.com' } });
    expect(jira.stderr.trim()).to.equal('mcp-devtools: JIRA_BASE_URL="ftp://jira.example.com" must be an http:// or https:// URL, not ftp:');
  });

  it('an unknown plugin is named with what plugins can be, and no file of the server', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['jira', 'gitlab'] }));
    const ran = await runCli(['tools'], { cwd: dir });
    expect(ran.code).to.equal(1);
    expect(ran.stderr.trim()).to.equal(
      `mcp-devtools: Plugin "gitlab" cannot be found: no installed package of that name is visible from ${dir}. Built-in plugins: github, circleci, jira, confluence, bitbucket, ci; others are module paths (./my-plugin.js) or installed packages.`,
    );
    writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['./plugins/gitlab.js'] }));
    const path = await runCli(['tools'], { cwd: dir });
    expect(path.stderr.trim()).to.equal(
      `mcp-devtools: Plugin "./plugins/gitlab.js" cannot be found: ${join(dir, 'plugins/gitlab.js')} does not exist. Built-in plugins: github, circleci, jira, confluence, bitbucket, ci; others are module paths (./my-plugin.js) or installed packages.`,
    );
  });
});

describe('settings found where users put them', () => {
  it('a plugin\'s setting in the "mcp-devtools" section of ~/.mcp/configs.json is honoured; a misplaced one is warned about', async () => {
    const home = tempDir();
    mkdirSync(join(home, '.mcp'));
    writeFileSync(
      join(home, '.mcp', 'configs.json'),
      JSON.stringify({
        'mcp-devtools': { environments: { GITHUB_API_URL: 'https://ghe.example.com/api/v3', MCP_READONLY: 'true' } },
        github: { environments: { MCP_READ_ONLY: 'true' } },
        filesystem: { environments: { ROOT: '/srv' } },
      }),
    );
    const ran = await runCli(['config', '--json'], { env: { HOME: home } });
    expect(ran.code).to.equal(0);
    const rows = (JSON.parse(ran.stdout) as { settings: Array<{ key: string; value: unknown; source: string }> }).settings;
    expect(rows.find((r) => r.key === 'GITHUB_API_URL')).to.deep.include({
      value: 'https://ghe.example.com/api/v3',
      source: '~/.mcp/configs.json (mcp-devtools)',
    });
    expect(rows.find((r) => r.key === 'MCP_READ_ONLY')).to.deep.include({ value: false, source: 'default' });
    expect(ran.stderr.split('\n').filter(Boolean)).to.deep.equal([
      'warning: ~/.mcp/configs.json: "MCP_READONLY" in the "mcp-devtools" section is not a setting of any loaded plugin, so it is ignored. Did you mean "MCP_READ_ONLY"?',
      'warning: ~/.mcp/configs.json: "MCP_READ_ONLY" in the "github" section is ignored: it is read from the "mcp-devtools" section. Move it there.',
    ]);
  });

  it('both a .json and a .yaml config file is an error naming both', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mcp-devtools.config.json'), '{"plugins": ["github"]}');
    writeFileSync(join(dir, 'mcp-devtools.config.yaml'), 'plugins: [jira]\n');
    const ran = await runCli(['tools'], { cwd: dir });
    expect(ran.code).to.equal(1);
    expect(ran.stderr.trim()).to.equal(
      `mcp-devtools: Two config files in ${dir}: ${join(dir, 'mcp-devtools.config.json')} and ${join(dir, 'mcp-devtools.config.yaml')}. Keep one of them (merge what the other holds into it), or pick one with --config.`,
    );
  });
});
