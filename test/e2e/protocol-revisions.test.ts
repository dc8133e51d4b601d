import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { RawStdioServer } from '../support/raw-stdio.js';
import { startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const MODERN = '2026-07-28';
const clientInfo = { name: 'raw', version: '1' };
const initialize = (id: string | number, protocolVersion: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo },
});
/** The per-request `_meta` envelope every 2026-07-28 request carries instead of a handshake. */
const envelope = (protocolVersion = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': protocolVersion,
  'io.modelcontextprotocol/clientInfo': clientInfo,
  'io.modelcontextprotocol/clientCapabilities': {},
});
const cwd = (): string => mkdtempSync(join(tmpdir(), 'mcp-devtools-revisions-'));

describe('protocol revisions on the wire, with no client library in between', function () {
  this.timeout(60_000);

  describe('over stdio', () => {
    for (const revision of LEGACY_REVISIONS) {
      it(`answers initialize with ${revision} in ${revision}, then serves tools/list`, async () => {
        const server = await RawStdioServer.start({}, cwd(), revision);
        try {
          expect((await server.reply('init')).result?.protocolVersion).to.equal(revision);
          server.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
          const tools = (await server.reply('list')).result?.tools as Array<{ title?: string; annotations?: { title?: string } }>;
          expect(tools.length).to.be.greaterThan(20);
          // A tool's top-level title came with 2025-06-18: older clients read annotations.title, newer ones are not
          // sent it twice.
          const titles = tools.map((t) => [t.title !== undefined, t.annotations?.title === t.title]);
          const expected = revision >= '2025-06-18' ? [true, false] : [true, true];
          expect(titles.filter(([top, repeated]) => top !== expected[0] || repeated !== expected[1])).to.deep.equal([]);
        } finally {
          await server.stop();
        }
      });
    }

    it('answers a revision it does not know with its newest 2025-era one, as the specification says', async () => {
      const server = await RawStdioServer.start({}, cwd(), '2023-01-01');
      try {
        expect((await server.reply('init')).result?.protocolVersion).to.equal('2025-11-25');
      } finally {
        await server.stop();
      }
    });

    it('answers initialize before the requests a client sends right after it, in one write', async () => {
      const server = RawStdioServer.spawn({}, cwd());
      try {
        const lines = [
          initialize(1, '2025-11-25'),
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
          { jsonrpc: '2.0', id: 3, method: 'ping' },
        ];
        server.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
        await server.reply(3);
        await server.reply(2);
        expect(server.replies.map((r) => r.id)).to.deep.equal([1, 2, 3]);
      } finally {
        await server.stop();
      }
    });

    it('speaks 2026-07-28 to a client that opens with server/discover, then answers its enveloped requests', async () => {
      const server = RawStdioServer.spawn({}, cwd());
      try {
        server.send({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: envelope() } });
        const discovered = (await server.reply('d')).result!;
        expect(discovered.supportedVersions).to.deep.equal([MODERN]);
        expect(discovered.resultType).to.equal('complete');
        expect((discovered._meta as Record<string, object>)['io.modelcontextprotocol/serverInfo']).to.include({ name: 'mcp-devtools' });
        server.send({ jsonrpc: '2.0', id: 'l', method: 'tools/list', params: { _meta: envelope() } });
        expect(((await server.reply('l')).result?.tools as unknown[]).length).to.be.greaterThan(20);
        // The 2025 handshake is not part of 2026-07-28: a connection that chose the new revision keeps it.
        server.send(initialize('late', '2025-11-25'));
        expect((await server.reply('late')).error?.code).to.equal(-32022);
      } finally {
        await server.stop();
      }
    });
  });

  describe('over Streamable HTTP (stateless)', () => {
    let server: HttpServerProcess;
    const post = async (
      body: unknown,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; json: { result?: Record<string, unknown>; error?: { code: number; message: string } } }> => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as never };
    };
    const modernHeaders = (method: string, name?: string): Record<string, string> => ({
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    });
    const call = (name: string) => ({
      jsonrpc: '2.0',
      id: 'c',
      method: 'tools/call',
      params: { name, arguments: { path: '/repos/acme/app' }, _meta: envelope() },
    });

    before(async () => {
      server = await startHttpServer({ env: { GITHUB_API_URL: 'http://127.0.0.1:9', GITHUB_TOKEN: 'ghp_revisions' } });
    });
    after(async () => {
      await server.stop();
    });

    for (const revision of LEGACY_REVISIONS) {
      it(`answers initialize with ${revision} in ${revision}`, async () => {
        const { status, json } = await post(initialize(1, revision));
        expect([status, json.result?.protocolVersion]).to.deep.equal([200, revision]);
      });
    }

    it('serves a 2025-era request by the revision its MCP-Protocol-Version header names', async () => {
      const { status, json } = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' });
      expect(status).to.equal(200);
      expect((json.result?.tools as unknown[]).length).to.be.greaterThan(20);
    });

    it('serves a 2026-07-28 request whose headers agree with its body', async () => {
      const { status, json } = await post(
        { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: envelope() } },
        modernHeaders('server/discover'),
      );
      expect([status, json.result?.supportedVersions]).to.deep.equal([200, [MODERN]]);
      const called = await post(call('github_get'), modernHeaders('tools/call', 'github_get'));
      expect([called.status, called.json.result?.resultType, called.json.result?.isError]).to.deep.equal([200, 'complete', true]); // the upstream is unreachable
    });

    it('refuses a 2026-07-28 request without the headers the revision requires, or with ones that disagree', async () => {
      const cases: Array<[string, Record<string, string>]> = [
        ['no MCP-Protocol-Version', { 'mcp-method': 'tools/call', 'mcp-name': 'github_get' }],
        ['no Mcp-Method', { 'mcp-protocol-version': MODERN, 'mcp-name': 'github_get' }],
        ['no Mcp-Name on tools/call', modernHeaders('tools/call')],
        ['Mcp-Name naming another tool', modernHeaders('tools/call', 'jira_get')],
        ['Mcp-Method naming another method', modernHeaders('tools/list', 'github_get')],
        ['MCP-Protocol-Version naming another revision', { ...modernHeaders('tools/call', 'github_get'), 'mcp-protocol-version': '2025-11-25' }],
      ];
      for (const [what, headers] of cases) {
        const { status, json } = await post(call('github_get'), headers);
        expect([status, json.error?.code], what).to.deep.equal([400, -32020]);
      }
    });

    it('refuses a request that claims 2026-07-28 in its header but carries no envelope, and initialize sent as 2026-07-28', async () => {
      const bare = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, modernHeaders('tools/list'));
      expect([bare.status, bare.json.error?.code]).to.deep.equal([400, -32602]);
      const handshake = await post(initialize(1, '2025-11-25'), { 'mcp-protocol-version': MODERN });
      expect([handshake.status, handshake.json.error?.code]).to.deep.equal([400, -32020]);
    });

    it('answers an envelope naming a revision it does not serve with the revisions it does', async () => {
      const { status, json } = await post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope('2027-01-01') } },
        { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2027-01-01' },
      );
      expect([status, json.error?.code]).to.deep.equal([400, -32022]);
      expect((json.error as { data?: { supported?: string[] } }).data?.supported).to.deep.equal([MODERN]);
    });
  });
});
