// The call line an on-call engineer reads: which request it was (the id the caller sent, or one made for it),
// which MCP client sent it, which process wrote it, and a level that says whose fault a failure was: the vendor's
// (401/403, 5xx, timeouts, an unreachable host) at warn, ours (a plugin that crashed) at error. The same id goes
// to the vendor as X-Request-Id and into the audit record.
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { circleciFixture } from '../../fixtures/circleci/circleci-api.js';
import { FIXTURE_PLUGIN_PATH } from '../../support/fixture-plugin.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

type Line = Record<string, unknown> & { msg: string; level: number };

const WORKFLOW = '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3';
const HEX32 = /^[0-9a-f]{32}$/;

describe('the call line: request id, client and level (in-process kernel against a CircleCI-shaped mock)', () => {
  const audit = join(mkdtempSync(join(tmpdir(), 'call-line-audit-')), 'audit.jsonl');
  const t = useVendorKernel({
    plugins: ['circleci', FIXTURE_PLUGIN_PATH],
    env: (url) => ({
      CIRCLECI_BASE_URL: url,
      CIRCLECI_TOKEN: 'circle-callLineToken0123456789',
      // The fixture vendor points at a port nothing listens on: an unreachable vendor.
      FIXTURE_TOKEN: 'fixture-token',
      MCP_UPSTREAM_RETRIES: '0',
      MCP_REQUEST_TIMEOUT_MS: '1500', // ample for a first request on a loaded machine; the timeout test waits it out
      MCP_AUDIT_LOG: audit,
    }),
  });

  const lines = (): Line[] => t.kernel.logs.map((l) => JSON.parse(l) as Line);
  const callLines = (): Line[] => lines().filter((l) => l.msg === 'tool call');
  const lastCallLine = (): Line => callLines().at(-1)!;
  const call = (tool: string, args: Record<string, unknown>, options = {}) => t.kernel.kernel.call(tool, args, LOCAL_PRINCIPAL, options);

  it('makes a request id for a call whose caller sent none, a new one per call, and names the process', async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { body: circleciFixture('workflow.json') });
    await call('circleci_get', { path: WORKFLOW, fresh: true });
    await call('circleci_get', { path: WORKFLOW, fresh: true });
    const [first, second] = callLines().slice(-2);
    expect(first!.requestId).to.match(HEX32);
    expect(second!.requestId).to.match(HEX32).and.not.equal(first!.requestId);
    expect(first).to.include({ level: 30, outcome: 'ok', pid: process.pid, hostname: hostname(), clientName: null, clientVersion: null });
    // The vendor got the same id, as X-Request-Id.
    expect(t.mock.requests.map((r) => r.headers['x-request-id'])).to.deep.equal([first!.requestId, second!.requestId]);
  });

  it("keeps the caller's request id and client, sends the id upstream and writes it in the audit record", async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { body: circleciFixture('workflow.json'), headers: { 'x-request-id': 'circleci-side-id-7' } });
    await call('circleci_get', { path: WORKFLOW, fresh: true }, { requestId: 'req-7f3a-checkout', client: { name: 'claude-code', version: '2.1.4' } });
    expect(lastCallLine()).to.include({
      requestId: 'req-7f3a-checkout',
      clientName: 'claude-code',
      clientVersion: '2.1.4',
      // The vendor's own id for the same request, for its support desk.
      upstreamRequestId: 'circleci-side-id-7',
    });
    expect(t.mock.requests[0]!.headers['x-request-id']).to.equal('req-7f3a-checkout');
    const records = readFileSync(audit, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { tool: string; requestId?: string });
    expect(records.at(-1)).to.include({ tool: 'circleci_get', requestId: 'req-7f3a-checkout' });
  });

  it('makes an id instead of taking one that could forge the header it is sent in', async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { body: circleciFixture('workflow.json') });
    await call('circleci_get', { path: WORKFLOW, fresh: true }, { requestId: 'abc\r\nX-Injected: 1' });
    const line = lastCallLine();
    expect(line.requestId).to.match(HEX32);
    expect(t.mock.requests[0]!.headers['x-request-id']).to.equal(line.requestId);
    expect(t.mock.requests[0]!.headers).not.to.have.property('x-injected');
  });

  it("makes an id instead of taking a configured secret as one: it would reach the vendor's header and the audit record", async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { body: circleciFixture('workflow.json') });
    await call('circleci_get', { path: WORKFLOW, fresh: true }, { requestId: 'circle-callLineToken0123456789' });
    expect(lastCallLine().requestId).to.match(HEX32);
    expect(t.mock.requests[0]!.headers['x-request-id']).to.match(HEX32);
    expect(readFileSync(audit, 'utf8')).not.to.contain('circle-callLineToken0123456789');
  });

  for (const status of [401, 403]) {
    it(`logs a vendor's ${status} at warn: the credential is the operator's to fix`, async () => {
      t.mock.on('GET', `/api/v2${WORKFLOW}`, { status, body: circleciFixture('error.json') });
      await call('circleci_get', { path: WORKFLOW, fresh: true });
      expect(lastCallLine()).to.include({ level: 40, outcome: 'upstream_http_error', upstreamStatus: status });
    });
  }

  it("logs a vendor's 503 at warn", async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { status: 503, body: 'upstream connect error', headers: { 'content-type': 'text/plain' } });
    await call('circleci_get', { path: WORKFLOW, fresh: true });
    expect(lastCallLine()).to.include({ level: 40, outcome: 'upstream_server_error', upstreamStatus: 503 });
  });

  it('logs a vendor that does not answer in time at warn', async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { delayMs: 2500, body: circleciFixture('workflow.json') });
    await call('circleci_get', { path: WORKFLOW, fresh: true });
    expect(lastCallLine()).to.include({ level: 40, outcome: 'upstream_timeout', upstreamStatus: null });
  });

  it('logs a vendor that cannot be reached at warn', async () => {
    await call('fixture_get', { path: '/anything' });
    expect(lastCallLine()).to.include({ level: 40, tool: 'fixture_get', outcome: 'upstream_unreachable' });
  });

  it("keeps a vendor's 404 at info: a wrong path is the caller's, not an incident", async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { status: 404, body: circleciFixture('error.json') });
    await call('circleci_get', { path: WORKFLOW, fresh: true });
    expect(lastCallLine()).to.include({ level: 30, outcome: 'upstream_http_error', upstreamStatus: 404 });
  });

  it('logs a plugin that crashed at error, its call line and the crash', async () => {
    await call('fixture_fail', {});
    expect(lastCallLine()).to.include({ level: 50, tool: 'fixture_fail', outcome: 'tool_failed' });
    expect(
      lines()
        .filter((l) => l.msg === 'tool handler failed')
        .at(-1),
    ).to.include({ level: 50, tool: 'fixture_fail' });
  });
});

describe('the call line names the MCP client (in-process, the official SDK client)', () => {
  const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'circle-callLineToken0123456789' }) });
  const lastCallLine = (): Line =>
    t.kernel.logs
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.msg === 'tool call')
      .at(-1)!;

  it("takes a 2025-era client's name and version from initialize", async () => {
    t.mock.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    const client = await t.kernel.connect({ mode: 'legacy' });
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
    expect(lastCallLine()).to.include({ clientName: 'mcp-devtools-testing', clientVersion: '1.0.0' });
  });

  it("takes a 2026-07-28 client's name and version from each request's envelope", async () => {
    t.mock.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    const client = await t.kernel.connect();
    expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me', fresh: true } });
    expect(lastCallLine()).to.include({ clientName: 'mcp-devtools-testing', clientVersion: '1.0.0' });
  });

  it("takes the request id from a traceparent in the request's _meta (over any transport)", async () => {
    t.mock.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    const client = await t.kernel.connect();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me', fresh: true }, _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(lastCallLine()).to.include({ requestId: traceId });
    expect(t.mock.requests.at(-1)!.headers['x-request-id']).to.equal(traceId);
  });
});
