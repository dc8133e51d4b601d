import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { CLI_PATH } from '../support/paths.js';
import { connectStdio, isolatedEnv, type StdioSession } from '../support/sdk-client.js';

const TOKEN = 'stdio-canary-token-0123456789';

function cwdWithConfig(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'stdio-e2e-'));
  writeFileSync(join(cwd, 'mcp-devtools.config.json'), fixtureConfig().content);
  return cwd;
}

describe('stdio transport, end to end with the official SDK client (dist/cli.js)', () => {
  let mock: MockUpstream;
  let session: StdioSession;

  before(async () => {
    mock = await MockUpstream.start();
    session = await connectStdio({ cwd: cwdWithConfig(), env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: TOKEN, LOG_LEVEL: 'debug' } });
  });
  after(async () => {
    await session.close();
    await mock.close();
  });

  it('lists the tools of a plugin loaded from a local file by the config file, with annotations', async () => {
    const { tools } = await session.client.listTools();
    const tool = tools.find((t) => t.name === 'fixture_get');
    expect(tool?.title).to.equal('Fixture GET');
    expect(tool?.annotations).to.deep.include({ readOnlyHint: true, openWorldHint: true });
    expect(tool?.inputSchema).to.deep.include({ type: 'object', required: ['path'] });
    expect(tool).not.to.have.property('outputSchema');
  });

  it('calls a tool against the upstream and returns TOON text', async () => {
    mock.on('GET', '/repos/acme/api', { body: { name: 'api', topics: ['ci', 'mcp'] } });
    const result = await session.client.callTool({ name: 'fixture_get', arguments: { path: '/repos/acme/api' } });
    expect(result.isError).to.equal(undefined);
    expect(result.content).to.deep.equal([{ type: 'text', text: 'name: api\ntopics[2]: ci,mcp' }]);
  });

  it('answers an unknown tool with a JSON-RPC error, and keeps serving', async () => {
    let message = '';
    await session.client.callTool({ name: 'nope', arguments: {} }).catch((e: Error) => (message = e.message));
    expect(message).to.contain('Unknown tool: nope');
    const { tools } = await session.client.listTools();
    expect(tools.length).to.be.greaterThan(0);
  });

  it('logs JSON lines to stderr with the configured token redacted', () => {
    expect(session.stderr.length).to.be.greaterThan(0);
    for (const line of session.stderr) {
      expect(() => JSON.parse(line), line).not.to.throw();
      expect(line).not.to.contain(TOKEN);
    }
  });
});

describe('stdio transport: stdout carries only JSON-RPC', () => {
  it('writes nothing but JSON-RPC messages to stdout, even with debug logging and a failing call', async () => {
    const cwd = cwdWithConfig();
    const child = spawn(process.execPath, [CLI_PATH], {
      cwd,
      env: isolatedEnv({ LOG_LEVEL: 'trace', FIXTURE_TOKEN: TOKEN }, cwd),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fixture_get', arguments: { path: '/unreachable' } } },
    ];
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (stdout.split('\n').filter(Boolean).length >= 2) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    child.stdin.end();
    await done;
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).to.have.length(2);
    const parsed = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: { isError?: boolean } });
    expect(parsed.map((p) => [p.jsonrpc, p.id])).to.deep.equal([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(parsed[1]?.result.isError).to.equal(true);
  });
});
