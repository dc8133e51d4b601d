// The trace of a tool call, through the server's own OpenTelemetry set-up (server/tracing) with its exporter
// swapped for an in-memory one: a SERVER span per call named as OpenTelemetry's MCP conventions name it, under
// it the policy decision, each request to the vendor as an HTTP client span (stable HTTP conventions, the
// query's values left out) and the render; a trace the request carried is continued, and the vendor is handed on.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { createLogger } from '../../../core/logging/logger.js';
import { startTracing, type RunningTracing } from '../../../server/tracing/start-tracing.js';
import { circleciFixture } from '../../fixtures/circleci/circleci-api.js';
import { tempFile } from '../../support/enterprise-fixture.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const WORKFLOW = '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3';
const TOKEN = 'circle-traceToken0123456789';
const POLICY = `version: 1
rules:
  - id: no-deletes-here
    effect: deny
    reason: Deletes go through the release train.
    match: { tools: ["circleci_delete"] }
  - id: everyone-reads
    effect: allow
    match: { readOnly: true }
`;

describe('the trace of a tool call (in-process, the server tracing set-up with an in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: RunningTracing;
  const t = useVendorKernel({
    plugins: ['circleci'],
    env: (url) => ({
      CIRCLECI_BASE_URL: url,
      CIRCLECI_TOKEN: TOKEN,
      MCP_POLICY_FILE: tempFile('policy.yaml', POLICY),
      MCP_UPSTREAM_RETRIES: '1',
      MCP_REQUEST_TIMEOUT_MS: '1500', // ample for a first request on a loaded machine; the timeout test waits it out
    }),
  });
  before(async () => {
    tracing = await startTracing({ logger: createLogger({ level: 'silent', secrets: [] }), exporter });
  });
  after(async () => {
    await tracing?.shutdown();
  });
  beforeEach(() => exporter.reset());

  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  const named = (name: string): ReadableSpan[] => spans().filter((s) => s.name === name);
  const callSpan = (): ReadableSpan => named('tools/call circleci_get').at(-1)!;
  const childrenOf = (parent: ReadableSpan): ReadableSpan[] => spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
  const call = (args: Record<string, unknown>, options = {}) => t.kernel.kernel.call('circleci_get', { fresh: true, ...args }, LOCAL_PRINCIPAL, options);
  const callLine = (): Record<string, unknown> =>
    t.kernel.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'tool call')
      .at(-1)!;

  it('makes a SERVER span named tools/call {tool}, with the policy decision, the request and the render under it', async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { body: circleciFixture('workflow.json') });
    await call({ path: WORKFLOW, queryParams: { 'branch-secret': 'release/hotfix-4711' } });
    const root = callSpan();
    expect(root.kind).to.equal(SpanKind.SERVER);
    expect(root.parentSpanContext).to.equal(undefined);
    expect(root.instrumentationScope.name).to.equal('mcp-devtools');
    expect(root.attributes).to.include({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'circleci_get',
      'mcp_devtools.vendor': 'circleci',
      'mcp_devtools.outcome': 'ok',
    });
    expect(root.status.code).to.equal(SpanStatusCode.UNSET);
    // With tracing on and no id sent, the request id is the trace's: the log line leads to the trace.
    const traceId = root.spanContext().traceId;
    expect(root.attributes['mcp_devtools.request.id']).to.equal(traceId);
    expect(callLine()).to.include({ requestId: traceId, traceId });
    expect(childrenOf(root).map((s) => s.name)).to.deep.equal(['policy policy/policy-decision', 'GET', 'render toon/toon-or-json']);
    const get = named('GET')[0]!;
    const port = Number(new URL(t.mock.url).port);
    expect(get.kind).to.equal(SpanKind.CLIENT);
    expect(get.attributes).to.deep.equal({
      'http.request.method': 'GET',
      'url.full': `${t.mock.url}/api/v2${WORKFLOW}?branch-secret=REDACTED`,
      'server.address': '127.0.0.1',
      'server.port': port,
      'mcp_devtools.vendor': 'circleci',
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.to.contain('hotfix-4711');
    // The vendor was handed the trace: its traceparent names this request's span.
    expect(t.mock.requests[0]!.headers.traceparent).to.equal(`00-${traceId}-${get.spanContext().spanId}-01`);
  });

  it('keeps a configured secret out of the request span, wherever a path put it', async () => {
    await call({ path: `/project/gh/acme/${TOKEN}/pipeline` });
    const [get] = named('GET');
    expect(get!.attributes['url.full']).to.equal(`${t.mock.url}/api/v2/project/gh/acme/[REDACTED]/pipeline`);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.to.contain(TOKEN);
  });

  it('continues the trace the request carried, under the span it named', async () => {
    t.mock.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await call({ path: '/me' }, { traceCarrier: { traceparent: `00-${traceId}-b7ad6b7169203331-01`, tracestate: 'vendor=opaque' } });
    const root = callSpan();
    expect(root.spanContext().traceId).to.equal(traceId);
    expect(root.parentSpanContext).to.include({ traceId, spanId: 'b7ad6b7169203331', isRemote: true });
    expect(spans().every((s) => s.spanContext().traceId === traceId)).to.equal(true);
    expect(t.mock.requests[0]!.headers.tracestate).to.equal('vendor=opaque');
  });

  it("shows a vendor's 503 on each request's span, a retry with its resend count, and the call failed with its code", async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { status: 503, body: 'upstream connect error', headers: { 'content-type': 'text/plain' } });
    await call({ path: WORKFLOW });
    const requests = named('GET');
    expect(requests.map((s) => [s.attributes['http.response.status_code'], s.attributes['error.type'], s.status.code])).to.deep.equal([
      [503, '503', SpanStatusCode.ERROR],
      [503, '503', SpanStatusCode.ERROR],
    ]);
    expect(requests.map((s) => s.attributes['http.request.resend_count'])).to.deep.equal([undefined, 1]);
    expect(callSpan().attributes).to.include({ 'error.type': 'upstream_server_error', 'mcp_devtools.outcome': 'upstream_server_error' });
    expect(callSpan().status.code).to.equal(SpanStatusCode.ERROR);
    expect(named('render toon/toon-or-json')).to.deep.equal([]);
  });

  it('shows a vendor that did not answer in time as a request span without a status, failed with upstream_timeout', async () => {
    t.mock.on('GET', `/api/v2${WORKFLOW}`, { delayMs: 2500, body: circleciFixture('workflow.json') });
    await call({ path: WORKFLOW });
    const [first] = named('GET');
    expect(first!.attributes).to.include({ 'error.type': 'upstream_timeout' });
    expect(first!.attributes).not.to.have.property('http.response.status_code');
    expect(callSpan().attributes).to.include({ 'error.type': 'upstream_timeout' });
  });

  it('shows a policy denial on the decision span, and no request', async () => {
    await t.kernel.kernel.call('circleci_delete', { path: '/project/gh/acme/api/envvar/X' }, LOCAL_PRINCIPAL);
    const root = named('tools/call circleci_delete')[0]!;
    expect(childrenOf(root).map((s) => [s.name, s.attributes['error.type']])).to.deep.equal([['policy policy/policy-decision', 'policy_denied']]);
    expect(t.mock.requests).to.deep.equal([]);
  });

  it("continues the trace in a request's _meta (SEP-414), sent by the official SDK client", async () => {
    t.mock.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    const client = await t.kernel.connect();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me', fresh: true }, _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const root = callSpan();
    expect(root.spanContext().traceId).to.equal(traceId);
    expect(root.attributes).to.include({
      'mcp.protocol.version': '2026-07-28',
      'mcp_devtools.client.name': 'mcp-devtools-testing',
      'mcp_devtools.request.id': traceId,
    });
    expect(root.attributes['jsonrpc.request.id']).to.be.a('string');
  });
});
