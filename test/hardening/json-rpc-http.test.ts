import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { auditedOutcome } from '../support/audit-records.js';
import { vendorCanaries } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';
import { VendorMocks } from '../support/vendor-mocks.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('hardening: JSON-RPC abuse over Streamable HTTP (dist/cli.js --transport http)', function () {
  this.timeout(60_000);
  let mocks: VendorMocks;
  let server: HttpServerProcess;
  let client: Client;
  let audit: string;

  const post = async (
    body: string,
    headers: Record<string, string> = HEADERS,
  ): Promise<{ status: number; json: { id?: unknown; error?: { code: number; message: string }; result?: unknown } | undefined }> => {
    const response = await fetch(server.url, { method: 'POST', headers, body });
    const text = await response.text();
    leakAudit.transcript('raw HTTP reply', text);
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  };

  before(async () => {
    mocks = await VendorMocks.start(vendorCanaries());
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-rpc-http-'));
    audit = join(cwd, 'audit.jsonl');
    leakAudit.watchPath(cwd);
    server = await startHttpServer({ cwd, env: { ...mocks.env(), MCP_AUDIT_LOG: audit } });
    client = await connectHttp(server.url);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
    for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
    await mocks?.close();
  });
  afterEach(async () => {
    // Whatever a test sent, the server still serves the official client.
    expect((await client.listTools()).tools.length).to.be.greaterThan(20);
  });

  it('answers malformed JSON with 400 and -32700', async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'garbage', '', '\u0000']) {
      const { status, json } = await post(body);
      expect([status, json?.error?.code, json?.id], JSON.stringify(body)).to.deep.equal([400, -32700, null]);
    }
  });

  it('answers JSON that is not a JSON-RPC message with 400 and -32600', async () => {
    for (const body of ['[1,2]', '[]', '{}', '42', 'null', '{"jsonrpc":"1.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":{},"method":"ping"}']) {
      const { status, json } = await post(body);
      expect([status, json?.error?.code], body).to.deep.equal([400, -32600]);
    }
  });

  it('answers an unknown method with -32601 and bad params with -32602, each under its id', async () => {
    const unknown = await post('{"jsonrpc":"2.0","id":"m1","method":"resources/destroy"}');
    expect([unknown.status, unknown.json?.id, unknown.json?.error?.code]).to.deep.equal([200, 'm1', -32601]);
    const bad = await post('{"jsonrpc":"2.0","id":"m2","method":"tools/call","params":{"name":"github_get","arguments":[1]}}');
    expect([bad.json?.id, bad.json?.error?.code]).to.deep.equal(['m2', -32602]);
  });

  it('refuses a body over 4 MiB with 413, announced or streamed without Content-Length', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'a'.repeat(5 * 1024 * 1024)}"}}`;
    const announced = await post(big);
    expect([announced.status, announced.json?.error?.code]).to.deep.equal([413, -32600]);
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { ...HEADERS, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 6; i++) req.write(Buffer.alloc(1024 * 1024, 'a'));
      req.end();
    });
    expect(streamed).to.equal(413);
  });

  it('refuses the wrong media types with 415 and 406, as the transport specification says', async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    expect((await post(ping, { 'content-type': 'text/plain', accept: HEADERS.accept })).status).to.equal(415);
    expect((await post(ping, { 'content-type': 'application/json' })).status).to.equal(406);
  });

  it('keeps serving after a client drops the connection halfway through sending its body', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { ...HEADERS, 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"github_get","argu');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
  });

  it('cancels the call of a client that aborts its request: the upstream call ends as cancelled, and other calls go on', async () => {
    mocks.vendors.github.mock.on('GET', '/repos/acme/slow', { body: { late: true }, delayMs: 20_000 });
    const controller = new AbortController();
    const pending = fetch(server.url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'github_get', arguments: { path: '/repos/acme/slow' } } }),
      signal: controller.signal,
    }).catch((error: Error) => error);
    while (mocks.vendors.github.mock.requests.every((r) => r.path !== '/repos/acme/slow')) await new Promise((r) => setTimeout(r, 10));
    const meanwhile = client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/app', outputFormat: 'json' } }) as Promise<CallToolResult>;
    controller.abort();
    expect(await pending).to.be.instanceOf(Error);
    await auditedOutcome(audit, 'github_get', 'cancelled');
    expect((await meanwhile).isError).to.equal(undefined);
  });

  it('answers 100 requests at once, half of them garbage, each as it deserves', async () => {
    const bodies = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? `{"jsonrpc":"2.0","id":${i},"method":"ping"}` : `{"jsonrpc":"2.0","id":${i},`));
    const replies = await Promise.all(bodies.map((b) => post(b)));
    replies.forEach((reply, i) =>
      expect(i % 2 === 0 ? [reply.status, reply.json?.id] : [reply.status, reply.json?.error?.code]).to.deep.equal(i % 2 === 0 ? [200, i] : [400, -32700]),
    );
  });
});
