// The commands a person runs, through the built CLI: what they print is for a person (plain text, or JSON when
// asked), never the kernel's log lines unless --verbose; a server that cannot start says why in one sentence,
// on a terminal and when an MCP client started it; a server on a terminal says what it serves and how to stop.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { endOfLifeNotice } from '../../server/cli/runtime-support.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { connectStdio } from '../support/sdk-client.js';
import { runInTerminal } from '../support/terminal.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** A working directory whose config file loads only the fixture vendor. */
function fixtureDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-people-'));
  writeFileSync(join(dir, 'mcp-devtools.config.json'), fixtureConfig().content);
  return dir;
}
const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** A pretty log line: local time, the level, the message and the other fields. */
const PRETTY = /^\d\d:\d\d:\d\d\.\d{3} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/;

const FIXTURE_TABLE = [
  'NAME           ACCESS  TOOLSET    TITLE',
  'artifact_read  read    artifacts  Read an artifact',
  'fixture_get    read    fixture    Fixture GET',
  'fixture_fail   read    fixture    Fixture failure',
  '',
  '3 tools (0 that write) in 2 toolsets.',
  '',
].join('\n');

describe('commands that answer a person print for a person', () => {
  let mock: MockUpstream;
  const token = canary('fixture-token-');
  before(async () => (mock = await MockUpstream.start()));
  after(async () => mock.close());

  it('--version prints the version and nothing else', async () => {
    const ran = await runCli(['--version']);
    expect(ran).to.deep.equal({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('tools prints its table, and no log line', async () => {
    const ran = await runCli(['tools'], { cwd: fixtureDir() });
    expect(ran).to.deep.equal({ code: 0, stdout: FIXTURE_TABLE, stderr: '' });
  });

  it("tools --verbose adds the kernel's log lines on stderr, JSON when stderr is not a terminal", async () => {
    const ran = await runCli(['tools', '--verbose'], { cwd: fixtureDir() });
    expect(ran.stdout).to.equal(FIXTURE_TABLE);
    expect(jsonLines(ran.stderr).map((l) => l.msg)).to.include('kernel started');
    expect(
      ran.stderr
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('{')),
    ).to.equal(true);
  });

  it('tools counts in the singular when there is one: "1 tool ... in 1 toolset"', async () => {
    const ran = await runCli(['tools', '--tools', 'fixture_get'], { cwd: fixtureDir() });
    expect(ran.code, ran.stderr).to.equal(0);
    expect(ran.stdout.trim().split('\n').at(-1)).to.equal('1 tool (0 that write) in 1 toolset.');
  });

  it("the server's start-up line counts the tools it serves, not every tool registered", async () => {
    const env = { MCP_TOOLS: 'fixture_get' };
    const served = JSON.parse((await runCli(['tools', '--json'], { cwd: fixtureDir(), env })).stdout) as unknown[];
    const ran = await runCli([], { cwd: fixtureDir(), env });
    const started = jsonLines(ran.stderr).find((l) => l.msg === 'kernel started');
    expect(started).to.include({ tools: served.length });
    expect(served.length).to.be.below(3);
  });

  it('tools --json prints JSON', async () => {
    const ran = await runCli(['tools', '--json'], { cwd: fixtureDir() });
    expect(ran.stderr).to.equal('');
    expect((JSON.parse(ran.stdout) as Array<{ name: string }>).map((t) => t.name)).to.deep.equal(['artifact_read', 'fixture_get', 'fixture_fail']);
  });

  it("call prints the result's text and no log line; --verbose adds the call's log line", async () => {
    mock.on('GET', '/ok', { body: { runs: [{ id: 1, status: 'completed' }] } });
    const env = { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: token };
    const quiet = await runCli(['call', 'fixture_get', '{"path":"/ok"}'], { cwd: fixtureDir(), env });
    expect(quiet).to.deep.equal({ code: 0, stdout: 'runs[1]{id,status}:\n  1,completed\n', stderr: '' });
    const verbose = await runCli(['call', 'fixture_get', '{"path":"/ok"}', '--verbose'], { cwd: fixtureDir(), env });
    expect(verbose.stdout).to.equal(quiet.stdout);
    expect(jsonLines(verbose.stderr).find((l) => l.msg === 'tool call')).to.deep.include({ tool: 'fixture_get', outcome: 'ok' });
  });

  it('call --json prints the whole result as JSON, as --structured does', async () => {
    mock.on('GET', '/json', { body: { id: 7 } });
    const env = { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: token };
    const json = await runCli(['call', 'fixture_get', '{"path":"/json"}', '--json'], { cwd: fixtureDir(), env });
    expect([json.code, json.stderr]).to.deep.equal([0, '']);
    const result = JSON.parse(json.stdout) as { content: Array<{ type: string; text: string }>; isError?: boolean };
    expect(result.content[0]).to.deep.equal({ type: 'text', text: 'id: 7' });
    const structured = await runCli(['call', 'fixture_get', '{"path":"/json"}', '--structured'], { cwd: fixtureDir(), env });
    expect(JSON.parse(structured.stdout)).to.deep.equal(result);
  });

  it('policy check --json prints the verdict, and each problem with its line, as JSON on stdout', async () => {
    const dir = fixtureDir();
    writeFileSync(join(dir, 'good.yaml'), 'version: 1\nrules:\n  - id: reads\n    effect: allow\n    match: { readOnly: true }\n');
    const good = await runCli(['policy', 'check', 'good.yaml', '--json'], { cwd: dir });
    expect([good.code, good.stderr]).to.deep.equal([0, '']);
    expect(JSON.parse(good.stdout)).to.deep.include({ file: 'good.yaml', valid: true, rules: 1 });
    expect((JSON.parse(good.stdout) as { version: string }).version).to.match(/^sha256:[0-9a-f]{16}$/);
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nrules:\n  - id: a\n    effect: alow\n');
    const bad = await runCli(['policy', 'check', 'bad.yaml', '--json'], { cwd: dir });
    expect([bad.code, bad.stderr]).to.deep.equal([1, '']);
    expect(JSON.parse(bad.stdout)).to.deep.equal({
      file: 'bad.yaml',
      valid: false,
      problems: [{ line: 4, message: 'rules[0].effect: must be one of "allow", "deny", "approval_required", "confirm" (got "alow")' }],
    });
  });

  it('a warning about the configuration is one plain line, not a log line', async () => {
    const dir = fixtureDir();
    writeFileSync(join(dir, '.env'), '');
    const home = mkdtempSync(join(tmpdir(), 'cli-people-home-'));
    mkdirSync(join(home, '.mcp'));
    writeFileSync(join(home, '.mcp', 'configs.json'), JSON.stringify({ 'mcp-devtools': { environments: { MCP_READONLY: 'true' } } }));
    const ran = await runCli(['tools'], { cwd: dir, env: { HOME: home } });
    expect(ran.stdout).to.equal(FIXTURE_TABLE);
    expect(ran.stderr).to.equal(
      'warning: ~/.mcp/configs.json: "MCP_READONLY" in the "mcp-devtools" section is not a setting of any loaded plugin, so it is ignored. Did you mean "MCP_READ_ONLY"?\n',
    );
  });

  it('policy explain and config print no log line', async () => {
    const dir = fixtureDir();
    writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nrules:\n  - id: reads\n    effect: allow\n    match: { readOnly: true }\n');
    const explained = await runCli(['policy', 'explain', 'policy.yaml', '--tool', 'fixture_get', '--args', '{"path":"/ok"}', '--subject', 'alice'], {
      cwd: dir,
      env: { FIXTURE_BASE_URL: mock.url },
    });
    expect(explained.code, explained.stderr).to.equal(0);
    expect(explained.stdout.split('\n')[0]).to.equal('Decision: allow by rule reads: Rule "reads" allows this call.');
    expect(explained.stderr).to.equal('');
    const config = await runCli(['config'], { cwd: dir });
    expect([config.code, config.stderr]).to.deep.equal([0, '']);
  });

  it('audit verify --json prints the report as JSON, and nothing on stderr', async () => {
    const dir = fixtureDir();
    writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nrules:\n  - id: reads\n    effect: allow\n    match: { readOnly: true }\n');
    mock.on('GET', '/audited', { body: { ok: true } });
    const env = { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: token, MCP_POLICY_FILE: join(dir, 'policy.yaml'), MCP_AUDIT_LOG: join(dir, 'audit.jsonl') };
    for (let i = 0; i < 2; i++) expect((await runCli(['call', 'fixture_get', '{"path":"/audited"}'], { cwd: dir, env })).stderr).to.equal('');
    const plain = await runCli(['audit', 'verify', 'audit.jsonl'], { cwd: dir });
    expect(plain).to.deep.equal({ code: 0, stdout: 'audit.jsonl: OK, 2 records, chain intact.\n', stderr: '' });
    const json = await runCli(['audit', 'verify', 'audit.jsonl', '--json'], { cwd: dir });
    expect(json.stderr).to.equal('');
    expect(JSON.parse(json.stdout)).to.deep.equal({
      file: 'audit.jsonl',
      ok: true,
      records: 2,
      chains: [{ writer: '', path: 'audit.jsonl', records: 2, ok: true }],
      problems: [],
      notes: [],
    });
  });
});

describe('a server that refuses to start says why in one plain sentence', () => {
  const refusal =
    "Refusing to serve HTTP on 0.0.0.0 with MCP_AUTH_MODE=off: anyone who can reach it would act with the server's credentials. Bind to 127.0.0.1 or set MCP_AUTH_MODE=tokens or oidc.";

  it('with LOG_FORMAT=pretty, started by an MCP client: the reason once, as a pretty FATAL line', async () => {
    const ran = await runCli(['--transport', 'http', '--host', '0.0.0.0', '--port', '0'], { cwd: fixtureDir(), env: { LOG_FORMAT: 'pretty' } });
    expect(ran.code).to.equal(1);
    const lines = ran.stderr.split('\n').filter(Boolean);
    expect(lines.filter((l) => l.includes(refusal))).to.have.length(1);
    expect(lines.at(-1)).to.match(PRETTY).and.to.include(` FATAL ${refusal}`);
    expect(
      lines.every((l) => PRETTY.test(l)),
      ran.stderr,
    ).to.equal(true);
  });

  it('started by an MCP client (stderr is not a terminal): the sentence last, after the same reason as a fatal JSON line for log collectors', async () => {
    const ran = await runCli(['--transport', 'http', '--host', '0.0.0.0', '--port', '0'], { cwd: fixtureDir() });
    expect(ran.code).to.equal(1);
    const lines = ran.stderr.split('\n').filter(Boolean);
    expect(lines.at(-1)).to.equal(`mcp-devtools: ${refusal}`);
    expect(JSON.parse(lines.at(-2)!)).to.deep.include({ level: 60, name: 'mcp-devtools', msg: refusal });
  });

  it("started by an MCP client's SDK over stdio with a setting it cannot use: the client's error ends with the sentence, which names the setting and no secret", async () => {
    const password = canary('redis-');
    const unreachable = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const failure = await connectStdio({ cwd: fixtureDir(), env: { MCP_STORE_URL: `redis://:${password}@127.0.0.1:${unreachable}/0` } }).then(
      async (session) => {
        await session.close();
        return 'started';
      },
      (error: Error) => error.message,
    );
    const lines = failure.split('\n').filter(Boolean);
    expect(lines.at(-1)).to.match(
      new RegExp(
        `^mcp-devtools: MCP_STORE_URL=redis://:\\*\\*\\*@127\\.0\\.0\\.1:${unreachable}/0: cannot connect to Redis: .*ECONNREFUSED.*\\. Check that Redis runs at that address`,
      ),
    );
    expect(failure).not.to.contain(password);
  });

  it('on a terminal: the sentence, and no JSON line', async () => {
    const ran = await runInTerminal(['--transport', 'http', '--host', '0.0.0.0', '--port', '0'], { cwd: fixtureDir() });
    expect(ran.code).to.equal(1);
    expect(ran.output.endsWith(`\nmcp-devtools: ${refusal}\n`), ran.output).to.equal(true);
    expect(ran.output.split('\n').filter((l) => l.startsWith('{'))).to.deep.equal([]);
  });

  it('a port already taken names the setting and the flag that choose it', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const ran = await runCli(['--transport', 'http', '--port', String(port)], { cwd: fixtureDir() });
      expect(ran.code).to.equal(1);
      expect(ran.stderr.split('\n').filter(Boolean).at(-1)).to.equal(
        `mcp-devtools: Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE). Stop what uses it, or choose another port with MCP_HTTP_PORT (--port).`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('serving over stdio on a terminal', () => {
  const banner = [
    `mcp-devtools ${VERSION} is serving MCP over stdio: 3 tools in 2 toolsets (artifacts, fixture).`,
    'An MCP client talks to it on stdin and stdout, so there is nothing to type here. Ctrl+C (or Ctrl+D) stops it.',
  ].join('\n');

  it('says once what it serves and how to stop it, logs in plain lines, and stops on Ctrl+D', async () => {
    const ran = await runInTerminal([], { cwd: fixtureDir(), typeWhen: { seen: 'stops it.', keys: '\x04' } });
    expect(ran.code, ran.output).to.equal(0);
    const lines = ran.output.split('\n').filter(Boolean);
    expect(ran.output.split(banner)).to.have.length(2);
    const logs = lines.filter((l) => !banner.includes(l));
    expect(
      logs.every((l) => PRETTY.test(l)),
      ran.output,
    ).to.equal(true);
    expect(logs[0]).to.match(/ INFO {2}kernel started plugins=\[.*\] tools=\d+ store=memory$/);
    const notice = endOfLifeNotice();
    if (notice !== undefined) expect(logs).to.satisfy((ls: string[]) => ls.some((l) => l.includes(`WARN  ${notice} node=`)));
    expect(logs.at(-1)).to.match(/ INFO {2}shutting down why="the client closed stdin or stdout"$/);
  });

  it('logs JSON lines on a terminal when LOG_FORMAT=json asks for them', async () => {
    const ran = await runInTerminal([], { cwd: fixtureDir(), env: { LOG_FORMAT: 'json' }, typeWhen: { seen: 'stops it.', keys: '\x04' } });
    expect(ran.code, ran.output).to.equal(0);
    expect(jsonLines(ran.output).map((l) => l.msg)).to.include.members(['kernel started', 'shutting down']);
    expect(ran.output).to.contain(banner);
  });

  it('with no credentials at all (the first run): says which vendors it leaves out and what to set', async () => {
    const ran = await runInTerminal([], { env: { MCP_TOOLSETS: '' }, typeWhen: { seen: 'stops it.', keys: '\x04' } });
    expect(ran.code, ran.output).to.equal(0);
    expect(ran.output).to.contain(
      "Not serving github, circleci, jira, confluence, bitbucket, ci: no credentials configured for them. Set a vendor's token (GITHUB_TOKEN, CIRCLECI_TOKEN, ATLASSIAN_API_TOKEN...: docs/configuration.md), or serve its tools anyway with --toolsets default.",
    );
  });

  it('started by an MCP client (pipes): no banner, JSON lines; LOG_FORMAT=pretty asks for plain lines', async () => {
    const piped = await runCli([], { cwd: fixtureDir() });
    expect(piped.code).to.equal(0);
    expect(piped.stderr).not.to.contain('is serving MCP');
    expect(
      piped.stderr
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('{')),
    ).to.equal(true);
    const pretty = await runCli([], { cwd: fixtureDir(), env: { LOG_FORMAT: 'pretty' } });
    const lines = pretty.stderr.split('\n').filter(Boolean);
    expect(lines.length).to.be.greaterThan(1);
    expect(
      lines.every((l) => PRETTY.test(l)),
      pretty.stderr,
    ).to.equal(true);
  });

  it('refuses a LOG_FORMAT it does not know, listing those it does', async () => {
    const ran = await runCli(['config'], { env: { LOG_FORMAT: 'text' } });
    expect(ran).to.include({ code: 1 });
    expect(ran.stderr).to.equal('mcp-devtools: Setting LOG_FORMAT="text" from environment is not one of the allowed values: auto, json, pretty.\n');
  });
});
