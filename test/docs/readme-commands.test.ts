// Every command README.md gives a person, run as written: the MCP client configurations (the server each would
// start, with its arguments and environment), the HTTP server, the config file and `config`. The first test
// holds the list: a command added to the README that no test runs fails it.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { canary } from '../support/canaries.js';
import { startCommand } from '../support/deployment-files.js';
import { FIXTURE_PLUGIN_PATH } from '../support/fixture-plugin.js';
import { freePort } from '../support/free-port.js';
import { codeBlocks, commandLines, readDoc, shellWords, terminalSamples } from '../support/markdown.js';
import { CLI_PATH, REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { connectHttp, connectStdio } from '../support/sdk-client.js';

const README = readDoc('README.md');

/** The commands of the README (inline or in a shell block) and the test that runs each as written. */
const RUN_BY: Record<string, string> = {
  'npm ci && npm run build && node dist/cli.js': 'test/docs/readme.test.ts',
  'npm ci && npm test': '.ci/run',
  'npm test': '.ci/run',
  'npm ci': '.ci/run (timed, with its size)',
  'npm run build': '.ci/run (timed)',
  'npm run test:install': '.ci/run (npm run lint and npm test run it first)',
  'npm run build:sqlite': '.ci/run (test:install runs it; test/e2e/sqlite-native-module.test.ts: the server without it)',
  'npx --yes ./mcp-devtools-VERSION.tgz': 'test/package/npx-tarball.test.ts',
  'npm pack': 'test/docs/readme.test.ts, test/package/global-install.test.ts',
  'node /path/to/mcp-devtools/dist/cli.js': 'test/docs/readme.test.ts (node dist/cli.js, in the clone)',
  'npm ci && npm run build && npm pack': 'test/docs/readme.test.ts, test/package/global-install.test.ts',
  'npm install -g ./mcp-devtools-VERSION.tgz': 'test/package/global-install.test.ts',
  'mcp-devtools --version': 'test/docs/readme.test.ts',
  'mcp-devtools tools': 'test/docs/readme.test.ts',
  'mcp-devtools tools --toolsets github.actions,jira.rest': 'test/docs/readme.test.ts (its output too)',
  'claude mcp add devtools -e GITHUB_TOKEN=ghp_... -- mcp-devtools --toolsets github': 'here',
  'mcp-devtools --transport http --port 3000': 'here',
  'npx @modelcontextprotocol/inspector --cli node dist/cli.js --toolsets default --method tools/list': 'examples/inspector',
  'mcp-devtools call github_list_workflow_runs \'{"owner":"acme","repo":"api","perPage":5}\'': 'test/docs/readme.test.ts',
  'mcp-devtools config': 'here',
  'mcp-devtools accounts connect github': 'test/e2e/accounts-cli.test.ts (device flow against a loopback GitHub)',
  'mcp-devtools': 'test/e2e/cli-people.test.ts (at a shell: what it serves, and Ctrl+C)',
};

/** What a person would type: inline code that starts with a command, and each line of a shell block. */
function readmeCommands(): string[] {
  const inline = [...README.matchAll(/(?<!`)`((?:mcp-devtools|npx|npm|node|claude)(?: [^`]*)?)`(?!`)/g)].map((m) => m[1]!);
  const blocks = codeBlocks(README)
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => commandLines(b.code).map((l) => l.command));
  const samples = terminalSamples(README).map((s) => s.command);
  // The future `npx -y mcp-devtools` (the package is not published yet) and the `--tool-name` fragment are no commands.
  const future = (c: string): boolean => c.startsWith('npx -y mcp-devtools');
  const version = /mcp-devtools-\d+\.\d+\.\d+\.tgz/g;
  return [...new Set([...inline, ...blocks, ...samples].filter((c) => !future(c)).map((c) => c.replace(version, 'mcp-devtools-VERSION.tgz')))];
}

type ToolRow = { name: string; access: string; toolset: string };

/** The toolsets a server with no selection serves (the default ones), as `tools --json` lists them. */
async function defaultToolsets(): Promise<string[]> {
  // Named: with nothing named, only the vendors with credentials are served (the default set's credential rule).
  const listed = await runCli(['tools', '--json', '--toolsets', 'default'], { env: { MCP_TOOLSETS: '' } });
  return [...new Set((JSON.parse(listed.stdout) as ToolRow[]).map((r) => r.toolset).filter((t) => t !== 'artifacts'))];
}

/** How each MCP client configuration of the README starts the server: command, arguments, environment. */
interface Launch {
  client: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

function clientLaunches(): Launch[] {
  const launches: Launch[] = [];
  for (const block of codeBlocks(README).filter((b) => b.lang === 'json')) {
    const parsed = JSON.parse(block.code) as Record<string, Record<string, { command: string; args?: string[]; env?: Record<string, string> }>>;
    const servers = parsed.mcpServers ?? parsed.servers;
    if (servers === undefined) continue;
    for (const server of Object.values(servers))
      launches.push({ client: parsed.mcpServers ? 'mcpServers' : 'VS Code', command: server.command, args: server.args ?? [], env: server.env ?? {} });
  }
  const claude = readmeCommands().find((c) => c.startsWith('claude mcp add'))!;
  const words = shellWords(claude);
  const server = words.slice(words.indexOf('--') + 1);
  const env = Object.fromEntries(words.flatMap((w, i) => (words[i - 1] === '-e' ? [w.split('=') as [string, string]] : [])));
  launches.push({ client: 'Claude Code', command: server[0]!, args: server.slice(1), env });
  return launches;
}

/** The plugins every server loads whatever its config file picks (projection, TOON, policy...). */
const CROSS_CUTTING = [
  'ProvenancePlugin',
  'ProjectionPlugin',
  'ToonPlugin',
  'TruncationPlugin',
  'CachePlugin',
  'ArtifactsPlugin',
  'StructuredOutputPlugin',
  'AllowlistsPlugin',
  'PolicyPlugin',
  'ToolsetsPlugin',
  'CodeModePlugin',
  'IdentityPlugin',
];

describe('README.md: every command it gives runs as written', () => {
  it('each command is run by a test (a new one fails here until one runs it)', () => {
    expect(readmeCommands().sort()).to.deep.equal(Object.keys(RUN_BY).sort());
    const named = Object.values(RUN_BY).flatMap((by) => [...by.matchAll(/(?:test|examples)\/[\w./-]+|\.ci\/run/g)].map((m) => m[0]));
    expect(named.filter((file) => !existsSync(join(REPO_ROOT, file)))).to.deep.equal([]);
  });

  describe('the MCP client configurations start the server they describe', () => {
    const launches = clientLaunches();

    it('three clients, each starting the installed `mcp-devtools`', () => {
      expect(launches.map((l) => [l.client, l.command])).to.deep.equal([
        ['mcpServers', 'mcp-devtools'],
        ['VS Code', 'mcp-devtools'],
        ['Claude Code', 'mcp-devtools'],
      ]);
    });

    for (const launch of clientLaunches())
      it(`${launch.client}: ${JSON.stringify(launch.args)} serves what \`mcp-devtools tools\` lists with them`, async () => {
        // Nothing but what the configuration gives (no selection means the default toolsets).
        const env = { MCP_TOOLSETS: '', ...launch.env };
        const listed = await runCli(['tools', '--json', ...launch.args], { env });
        expect([listed.code, listed.stderr]).to.deep.equal([0, '']);
        const rows = JSON.parse(listed.stdout) as ToolRow[];
        const session = await connectStdio({ args: launch.args, env });
        try {
          const served = (await session.client.listTools()).tools;
          expect(served.map((t) => t.name)).to.deep.equal(rows.map((r) => r.name));
          // What the arguments promise: the toolsets named (each of them, and nothing else), or nothing that writes.
          const named = launch.args.includes('--toolsets') ? launch.args[launch.args.indexOf('--toolsets') + 1]!.split(',') : undefined;
          if (named !== undefined) {
            const defaults = named.includes('default') ? await defaultToolsets() : [];
            const chosen = [...named.filter((n) => n !== 'default'), ...defaults];
            const within = (toolset: string, name: string): boolean => toolset === name || toolset.startsWith(`${name}.`);
            const served = rows.filter((r) => r.name !== 'artifact_read');
            expect(served.filter((r) => !chosen.some((n) => within(r.toolset, n))).map((r) => r.name)).to.deep.equal([]);
            expect(chosen.filter((n) => !served.some((r) => within(r.toolset, n)))).to.deep.equal([]);
          }
          if (launch.args.includes('--read-only')) expect(served.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).to.deep.equal([]);
          expect(served.length).to.be.greaterThan(3);
        } finally {
          await session.close();
        }
      });
  });

  it('`mcp-devtools --transport http --port 3000` serves Streamable HTTP at http://127.0.0.1:3000/mcp, and /healthz', async () => {
    const command = readmeCommands().find((c) => c.includes('--transport http'))!;
    const url = /serves Streamable\s+HTTP at `([^`]+)`/.exec(README)![1]!;
    // The one thing this machine may need different: a free port.
    const port = String(await freePort());
    const args = shellWords(command)
      .slice(1)
      .map((w) => (w === '3000' ? port : w));
    const dir = mkdtempSync(join(tmpdir(), 'readme-http-'));
    // A reader has credentials set: with none, the default tools would leave every vendor out.
    const env = { PATH: process.env.PATH ?? '', HOME: dir, GITHUB_TOKEN: 'ghp_readmeHttpTestToken0123' };
    const running = await startCommand(['node', CLI_PATH, ...args], env, dir);
    try {
      expect(running.url).to.equal(url.replace(':3000', `:${port}`));
      const client = await connectHttp(running.url);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).to.include('github_list_workflow_runs');
      } finally {
        await client.close();
      }
      expect((await fetch(new URL('/healthz', running.url))).status).to.equal(200);
    } finally {
      await running.stop();
    }
  });

  it('the config file example loads the plugins it names (its ./my-plugin.js here the test vendor) and its settings', async () => {
    const shown = codeBlocks(README).find((b) => b.code.includes('"plugins"'))!;
    const dir = mkdtempSync(join(tmpdir(), 'readme-config-'));
    writeFileSync(join(dir, 'mcp-devtools.config.json'), shown.code);
    writeFileSync(join(dir, 'my-plugin.js'), `export * from ${JSON.stringify(pathToFileURL(FIXTURE_PLUGIN_PATH).href)};\n`);
    const config = await runCli(['config', '--json'], { cwd: dir });
    expect([config.code, config.stderr]).to.deep.equal([0, '']);
    const effective = JSON.parse(config.stdout) as { configFile: string; plugins: string[]; settings: Array<{ key: string; value: unknown; source: string }> };
    expect(effective.plugins.filter((p) => !CROSS_CUTTING.includes(p))).to.deep.equal(['GithubPlugin', 'JiraPlugin', 'FixtureVendorPlugin']);
    const structured = effective.settings.find((s) => s.key === 'MCP_STRUCTURED_OUTPUT')!;
    expect(structured.value).to.equal(true);
    expect(structured.source).to.match(/^config file \S*mcp-devtools\.config\.json$/);
  });

  it('`mcp-devtools config` prints the effective values with their sources, secrets masked', async () => {
    const token = canary('ghp_');
    const ran = await runCli(['config'], { env: { GITHUB_TOKEN: token, MCP_HTTP_PORT: '3100' } });
    expect([ran.code, ran.stderr]).to.deep.equal([0, '']);
    const line = (key: string): string => ran.stdout.split('\n').find((l) => l.startsWith(`${key} `))!;
    expect(line('GITHUB_TOKEN')).to.match(/^GITHUB_TOKEN +"\*{8}" +\(environment; github\)$/);
    expect(line('MCP_HTTP_PORT')).to.match(/^MCP_HTTP_PORT +3100 +\(environment; /);
    expect(line('MCP_TRANSPORT')).to.match(/^MCP_TRANSPORT +"stdio" +\(default; /);
    expect(ran.stdout).not.to.contain(token);
  });
});
