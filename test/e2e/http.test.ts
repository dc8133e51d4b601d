import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

function cwdWithConfig(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'http-e2e-'));
  writeFileSync(join(cwd, 'mcp-devtools.config.json'), fixtureConfig().content);
  return cwd;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const postHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('Streamable HTTP transport, end to end (dist/cli.js --transport http)', () => {
  let mock: MockUpstream;
  let server: HttpServerProcess;
  let client: Client;

  before(async () => {
    mock = await MockUpstream.start();
    server = await startHttpServer({ cwd: cwdWithConfig(), env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'http-token-abcdef' } });
    client = await connectHttp(server.url);
  });
  after(async () => {
    await client.close();
    await server.stop();
    await mock.close();
  });

  it('serves tools/list and tools/call to the official SDK client at /mcp', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include('fixture_get');
    mock.on('GET', '/status', { body: { healthy: true } });
    const result = await client.callTool({ name: 'fixture_get', arguments: { path: '/status', outputFormat: 'json' } });
    expect(result.content).to.deep.equal([{ type: 'text', text: '{\n  "healthy": true\n}' }]);
  });

  it('answers GET /healthz', async () => {
    const response = await fetch(server.url.replace('/mcp', '/healthz'));
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ status: 'ok' });
  });

  it('refuses a browser Origin that is not loopback or configured, with 403', async () => {
    const response = await fetch(server.url, { method: 'POST', headers: { ...postHeaders, origin: 'https://evil.example' }, body: JSON.stringify(initialize) });
    expect(response.status).to.equal(403);
    const ok = await fetch(server.url, { method: 'POST', headers: { ...postHeaders, origin: 'http://localhost:5173' }, body: JSON.stringify(initialize) });
    expect(ok.status).to.equal(200);
  });

  it('answers malformed JSON with a JSON-RPC parse error, and keeps serving', async () => {
    const response = await fetch(server.url, { method: 'POST', headers: postHeaders, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(response.status).to.equal(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).to.equal(-32700);
    expect((await client.listTools()).tools.length).to.be.greaterThan(0);
  });

  it('answers GET /mcp with 405: the server is stateless and opens no SSE stream', async () => {
    const response = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).to.equal(405);
    expect(response.headers.get('allow')).to.equal('POST');
  });

  it('finishes an in-flight call on SIGTERM, then exits 0', async () => {
    mock.on('GET', '/slow', { body: { done: true }, delayMs: 700 });
    const pending = client.callTool({ name: 'fixture_get', arguments: { path: '/slow' } });
    await new Promise((r) => setTimeout(r, 200));
    const exit = server.stop('SIGTERM');
    const result = await pending;
    expect(result.content).to.deep.equal([{ type: 'text', text: 'done: true' }]);
    expect(await exit).to.equal(0);
  });
});

describe('Streamable HTTP start-up guard', () => {
  it('refuses to bind a non-loopback address with authentication off', async () => {
    let message = '';
    await startHttpServer({ args: ['--host', '0.0.0.0'] }).catch((e: Error) => (message = e.message));
    expect(message).to.contain('Refusing to serve HTTP on 0.0.0.0 with MCP_AUTH_MODE=off');
  });
});
