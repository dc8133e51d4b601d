import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { auditedOutcome } from '../support/audit-records.js';
import { vendorCanaries } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { RawStdioServer } from '../support/raw-stdio.js';
import { VendorMocks } from '../support/vendor-mocks.js';

const call = (id: string | number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('hardening: JSON-RPC abuse over stdio (raw bytes to dist/cli.js)', function () {
  this.timeout(60_000);
  let mocks: VendorMocks;
  let server: RawStdioServer;
  let audit: string;

  before(async () => {
    mocks = await VendorMocks.start(vendorCanaries());
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-rpc-stdio-'));
    audit = join(cwd, 'audit.jsonl');
    leakAudit.watchPath(cwd);
    server = await RawStdioServer.start({ ...mocks.env(), MCP_AUDIT_LOG: audit }, cwd);
  });
  after(async () => {
    await server?.stop();
    for (const reply of server?.replies ?? []) leakAudit.transcript('raw stdio reply', JSON.stringify(reply));
    for (const line of server?.stderr ?? []) leakAudit.transcript('raw stdio stderr', line);
    await mocks?.close();
  });
  afterEach(async function () {
    // Whatever a test sent, the server is still there, answering, and wrote nothing but JSON-RPC to stdout.
    await server.ping(`alive-after-${this.currentTest?.title.slice(0, 20)}`);
    expect(server.garbage).to.deep.equal([]);
  });

  it('answers malformed JSON with -32700 Parse error and id null', async () => {
    const before = server.replies.length;
    for (const line of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'garbage', '{"a":1}}', '\u0000\u0001', '{"jsonrpc":"2.0","id":1,"method":"ping",}'])
      server.send(line);
    await server.ping('after-malformed');
    const errors = server.replies.slice(before).filter((r) => r.error !== undefined);
    expect(errors.map((r) => [r.id, r.error!.code])).to.deep.equal(Array.from({ length: 5 }, () => [null, -32700]));
  });

  it('answers JSON that is not a JSON-RPC message (batches, scalars, wrong types) with -32600, keeping a usable id', async () => {
    const before = server.replies.length;
    for (const message of [
      '[1,2]',
      '[]',
      '42',
      '"ping"',
      'null',
      '{}',
      '{"jsonrpc":"1.0","id":"old","method":"ping"}',
      '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
      '{"jsonrpc":"2.0","id":"m","method":5}',
      '[{"jsonrpc":"2.0","id":"b","method":"ping"}]',
    ])
      server.send(message);
    await server.ping('after-invalid');
    const errors = server.replies.slice(before).filter((r) => r.error !== undefined);
    expect(errors.map((r) => r.error!.code)).to.deep.equal(Array.from({ length: 10 }, () => -32600));
    expect(errors.map((r) => r.id)).to.deep.equal([null, null, null, null, null, null, 'old', null, 'm', null]);
  });

  it('answers an unknown method with -32601, an unknown tool and arguments of the wrong type with -32602', async () => {
    server.send({ jsonrpc: '2.0', id: 'u1', method: 'tools/destroy' });
    server.send(call('u2', 'no_such_tool', {}));
    server.send(call('u3', 'github_get', 12));
    server.send(call('u4', 'github_get', ['/repos']));
    server.send({ jsonrpc: '2.0', id: 'u5', method: 'tools/call', params: { name: 5 } });
    expect((await server.reply('u1')).error?.code).to.equal(-32601);
    for (const id of ['u2', 'u3', 'u4', 'u5']) expect((await server.reply(id)).error?.code, id).to.equal(-32602);
    expect((await server.reply('u3')).error?.message).to.contain('arguments');
  });

  it('stays silent on notifications, malformed or unknown, as JSON-RPC requires', async () => {
    const before = server.replies.length;
    server.send({ jsonrpc: '2.0', method: 'notifications/unknown', params: { x: 1 } });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } });
    server.send('{"jsonrpc":"2.0","method":"notifications/x","params":3}');
    await server.ping('after-notifications');
    expect(server.replies.slice(before).map((r) => r.id)).to.deep.equal(['after-notifications']);
  });

  it('refuses a 5 MiB line with -32600 as it arrives, and serves the next message', async () => {
    server.write(Buffer.alloc(5 * 1024 * 1024, 'a'));
    server.write('\n');
    mocks.vendors.github.mock.requests.length = 0;
    server.send(call('after-huge', 'github_get', { path: '/repos/acme/app', outputFormat: 'json' }));
    const reply = await server.reply('after-huge');
    expect(JSON.parse((reply.result!.content as Array<{ text: string }>)[0]!.text)).to.deep.include({ ok: true, path: '/repos/acme/app' });
    expect(server.replies.some((r) => r.error?.code === -32600 && /larger than 4194304 bytes/.test(r.error.message))).to.equal(true);
  });

  it('reads messages split across writes, several in one write, and CRLF line ends', async () => {
    const text = `${JSON.stringify({ jsonrpc: '2.0', id: 's1', method: 'ping' })}\r\n${JSON.stringify({ jsonrpc: '2.0', id: 's2', method: 'tools/list' })}\n`;
    for (let i = 0; i < text.length; i += 7) server.write(text.slice(i, i + 7));
    expect((await server.reply('s1')).result).to.deep.equal({});
    expect(((await server.reply('s2')).result!.tools as unknown[]).length).to.be.greaterThan(20);
  });

  it('answers arguments nested 50,000 levels deep (valid JSON) with a clear invalid_arguments result', async () => {
    // Written by hand: JSON.stringify itself overflows long before 50,000 levels.
    server.send(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"circleci_post","arguments":{"path":"/x","body":${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}}}}`,
    );
    const reply = await server.reply('deep');
    expect(reply.result?.isError).to.equal(true);
    expect((reply.result!.content as Array<{ text: string }>)[0]!.text).to.contain('- body: is nested more than 100 levels deep');
  });

  it('stops a call when the client sends notifications/cancelled: the upstream call ends, and no response is sent for it', async () => {
    mocks.vendors.github.mock.on('GET', '/repos/acme/slow', { body: { late: true }, delayMs: 20_000 });
    server.send(call('slow', 'github_get', { path: '/repos/acme/slow' }));
    while (mocks.vendors.github.mock.requests.every((r) => r.path !== '/repos/acme/slow')) await new Promise((r) => setTimeout(r, 10));
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'the user changed their mind' } });
    // The audit record is written when the call ends: it ends as cancelled, long before the mock would answer.
    await auditedOutcome(audit, 'github_get', 'cancelled');
    await server.ping('after-cancel');
    expect(server.replies.filter((r) => r.id === 'slow')).to.deep.equal([]);
  });
});
