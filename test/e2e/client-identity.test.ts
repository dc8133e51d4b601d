// Who is calling (issue 55, item 3): the MCP client's name and version, as it named itself, in the call's log
// line, its audit record and its span, for a client of each generation (the 1.x SDK, and the v2 SDK in either era)
// over stdio and over stateless Streamable HTTP. A 2025-era client over HTTP names itself only in `initialize`,
// which a stateless server forgets; the session id the server hands out carries it, and a POST without one (curl)
// is named by its User-Agent.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { eventually } from '../support/enterprise-fixture.js';
import { connectHttpAs, connectStdioAs, startHttpServer, type ClientKind, type Connected, type HttpServerProcess } from '../support/sdk-client.js';

/** What each kind of client calls itself (test/support/sdk-client.ts). */
const NAMED: Record<Exclude<ClientKind, 'v2-pinned'>, { name: string; version: string }> = {
  sdk1: { name: 'mcp-devtools-tests-sdk1', version: '1.0.0' },
  'v2-legacy': { name: 'mcp-devtools-tests', version: '1.0.0' },
  'v2-auto': { name: 'mcp-devtools-tests', version: '1.0.0' },
};
const KINDS = Object.keys(NAMED) as Array<keyof typeof NAMED>;

interface OtlpSpan {
  name: string;
  attributes: Array<{ key: string; value: { stringValue?: string } }>;
}

/** The span attributes of every `tools/call` span the collector stand-in received, oldest first. */
function callSpans(collector: MockUpstream): Array<Record<string, string | undefined>> {
  return collector.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/traces')
    .flatMap((r) => (JSON.parse(r.body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }).resourceSpans)
    .flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans))
    .filter((s) => s.name.startsWith('tools/call '))
    .map((s) => Object.fromEntries(s.attributes.map((a) => [a.key, a.value.stringValue])));
}

const callLines = (stderr: readonly string[]): Array<Record<string, unknown>> =>
  stderr.flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [])).filter((l) => l.msg === 'tool call');

const auditRecords = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('who is calling: the client in the call line, the audit record and the span (dist/cli.js)', function () {
  this.timeout(120_000);
  let collector: MockUpstream;
  let circleci: MockUpstream;
  let dir: string;

  before(async () => {
    [collector, circleci] = await Promise.all([MockUpstream.start(), MockUpstream.start()]);
    collector.on('POST', '/v1/traces', { body: {} });
    circleci.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-client-identity-'));
  });
  after(async () => {
    await Promise.all([collector?.close(), circleci?.close()]);
  });

  const env = (audit: string): Record<string, string> => ({
    CIRCLECI_BASE_URL: circleci.url,
    CIRCLECI_TOKEN: canary('CCIPAT_'),
    MCP_AUDIT_LOG: join(dir, audit),
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    MCP_EGRESS_ALLOW: new URL(collector.url).host,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    MCP_TOOLSETS: 'circleci.rest',
  });

  /** Calls circleci_get once as `connected`, then finds that call's line, record and span by its request id. */
  async function checkOneCall(connected: Connected, stderr: () => readonly string[], audit: string, expected: { name: string; version?: string }) {
    await connected.client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
    await eventually('the call line is written', () => callLines(stderr()).length > 0);
    const line = callLines(stderr()).at(-1)!;
    expect(line, `${connected.kind} (${connected.revision})`).to.include({ clientName: expected.name, clientVersion: expected.version ?? null });
    const record = auditRecords(audit).find((r) => r.requestId === line.requestId);
    expect(record?.client, `${connected.kind}: audit record`).to.deep.equal(expected);
    await eventually('the call span reaches the collector', () => callSpans(collector).some((s) => s['mcp_devtools.request.id'] === line.requestId));
    const span = callSpans(collector).find((s) => s['mcp_devtools.request.id'] === line.requestId)!;
    expect(span, `${connected.kind}: span`).to.include({ 'mcp_devtools.client.name': expected.name, 'mcp_devtools.client.version': expected.version });
  }

  for (const kind of KINDS) {
    it(`over stdio, a ${kind} client`, async () => {
      const audit = join(dir, `stdio-${kind}.jsonl`);
      const connected = await connectStdioAs(kind, { env: env(`stdio-${kind}.jsonl`) });
      try {
        await checkOneCall(connected, () => connected.stderr, audit, NAMED[kind]);
      } finally {
        await connected.close();
      }
    });
  }

  describe('over stateless Streamable HTTP', () => {
    let server: HttpServerProcess;
    const audit = (): string => join(dir, 'http.jsonl');
    before(async () => {
      server = await startHttpServer({ env: env('http.jsonl') });
    });
    after(() => server?.stop());

    for (const kind of KINDS) {
      it(`a ${kind} client${kind === 'v2-auto' ? ' (2026-07-28: each request names it)' : " (2025: the session id carries initialize's clientInfo)"}`, async () => {
        const connected = await connectHttpAs(kind, server.url);
        try {
          await checkOneCall(connected, () => server.stderr, audit(), NAMED[kind]);
        } finally {
          await connected.close();
        }
      });
    }

    it('a 2025-era POST without initialize or session id (curl): named by its User-Agent', async () => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'user-agent': 'curl/8.5.0',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'circleci_get', arguments: { path: '/me' } } }),
      });
      expect(response.status).to.equal(200);
      await eventually('the call line is written', () => callLines(server.stderr).some((l) => l.clientName === 'curl'));
      expect(callLines(server.stderr).at(-1)).to.include({ clientName: 'curl', clientVersion: '8.5.0' });
    });

    it("hands out, on initialize, a session id that is the client's name and version, and nothing else", async () => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'Claude Desktop', version: '0.12.3' } },
        }),
      });
      const id = response.headers.get('mcp-session-id') ?? '';
      expect(id).to.match(/^[\x21-\x7e]+$/);
      expect(JSON.parse(Buffer.from(id.replace(/^mcp-devtools\.client\./, ''), 'base64url').toString('utf8'))).to.deep.equal({
        name: 'Claude Desktop',
        version: '0.12.3',
      });
    });
  });
});
