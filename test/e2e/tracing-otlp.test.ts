// Traces from the built server, exported as OpenTelemetry's standard variables say (OTLP over HTTP) to a loopback
// collector stand-in that records what it receives. The on-call question this answers: which vendor made the
// calls slow? One histogram (the upstream request duration, by vendor) and one trace (the call's span, the slow
// request's HTTP client span under it) name it. Also: a traceparent on the HTTP request continues its trace, and
// without the OTEL_* variables the SDK is not loaded at all.
import type { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { kitClient } from '../../server/testing/sdk-client.js';
import { circleciFixture } from '../fixtures/circleci/circleci-api.js';
import { githubFixture } from '../fixtures/github/github-api.js';
import { canary } from '../support/canaries.js';
import { eventually } from '../support/enterprise-fixture.js';
import { freePort } from '../support/free-port.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { parseExposition, valueOf } from '../support/prometheus-text.js';
import { connectStdio, startHttpServer, type HttpServerProcess, type StdioSession } from '../support/sdk-client.js';

/** A span as OTLP/JSON carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { code?: number };
}

interface Received {
  resource: Record<string, unknown>;
  spans: OtlpSpan[];
}

/** Everything the collector stand-in was sent at /v1/traces, resource by resource. */
function received(collector: MockUpstream): Received[] {
  return collector.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/traces')
    .flatMap(
      (r) =>
        (JSON.parse(r.body) as { resourceSpans: Array<{ resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> })
          .resourceSpans,
    )
    .map((rs) => ({ resource: attributesOf(rs.resource.attributes), spans: rs.scopeSpans.flatMap((s) => s.spans) }));
}

const spansOf = (collector: MockUpstream): OtlpSpan[] => received(collector).flatMap((r) => r.spans);

function attributesOf(list: OtlpSpan['attributes']): Record<string, unknown> {
  return Object.fromEntries(
    list.map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue))]),
  );
}

const millis = (span: OtlpSpan): number => Number((BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1_000_000n);

async function startCollector(): Promise<MockUpstream> {
  const collector = await MockUpstream.start();
  collector.on('POST', '/v1/traces', { body: {} });
  return collector;
}

describe('an SRE finds the slow vendor from one histogram and one trace (dist/cli.js over stdio, OTLP/HTTP)', () => {
  let collector: MockUpstream;
  let github: MockUpstream;
  let circleci: MockUpstream;
  let session: StdioSession;
  let metricsPort: number;

  before(async () => {
    [collector, github, circleci] = await Promise.all([startCollector(), MockUpstream.start(), MockUpstream.start()]);
    metricsPort = await freePort();
    session = await connectStdio({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        // The collector stand-in is on loopback: allowed past the egress guard, as an operator allows a sidecar.
        MCP_EGRESS_ALLOW: new URL(collector.url).host,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_SERVICE_NAME: 'devtools-on-call-test',
        MCP_METRICS_PORT: String(metricsPort),
        GITHUB_API_URL: github.url,
        GITHUB_TOKEN: canary('ghp_'),
        CIRCLECI_BASE_URL: circleci.url,
        CIRCLECI_TOKEN: canary('CCIPAT_'),
      },
    });
    // GitHub takes 1.2 s to answer; CircleCI answers at once.
    github.on('GET', '/repos/acme/api/actions/runs/30433642', { delayMs: 1200, body: githubFixture('workflow-run.json') });
    circleci.on('GET', '/api/v2/workflow/:id', { body: circleciFixture('workflow.json') });
    await session.client.callTool({ name: 'circleci_get', arguments: { path: '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3' } });
    await session.client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/api/actions/runs/30433642' } });
  });
  after(async () => {
    for (const line of session?.stderr ?? []) leakAudit.transcript('stdio server stderr', line);
    await session?.close();
    await Promise.all([collector, github, circleci].map((m) => m?.close()));
  });

  it('the histogram: GitHub requests above 1 s, CircleCI ones under it', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    const samples = parseExposition(await response.text());
    const bucket = (vendor: string, le: string): number | undefined =>
      valueOf(samples, 'mcp_devtools_upstream_request_duration_seconds_bucket', { vendor, method: 'GET', status_class: '2xx', le });
    expect([bucket('github', '1'), bucket('github', '2.5')]).to.deep.equal([0, 1]);
    expect([bucket('circleci', '1'), bucket('circleci', '2.5')]).to.deep.equal([1, 1]);
  });

  it("the trace: the slow call's time is its GitHub request's, named by host, port and status", async () => {
    await eventually('the spans of both calls reach the collector', () => spansOf(collector).filter((s) => s.name.startsWith('tools/call ')).length >= 2);
    const spans = spansOf(collector);
    const call = spans.find((s) => s.name === 'tools/call github_get')!;
    const requests = spans.filter((s) => s.parentSpanId === call.spanId && s.kind === 3 /* CLIENT */);
    expect(requests).to.have.length(1);
    const request = requests[0]!;
    expect(attributesOf(request.attributes)).to.include({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(github.url).port),
      'http.response.status_code': 200,
      'mcp_devtools.vendor': 'github',
    });
    expect(millis(request)).to.be.at.least(1200);
    // Nearly all of the call is the vendor's: what is left is this server's own work.
    expect(millis(call) - millis(request)).to.be.below(millis(request));
    expect(request.traceId).to.equal(call.traceId);
    // The call line of the slow call names the same trace.
    const line = session.stderr.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'tool call' && l.tool === 'github_get');
    expect(line).to.include({ traceId: call.traceId, requestId: call.traceId, level: 30 });
    const resource = received(collector)[0]!.resource;
    expect(resource).to.include({ 'service.name': 'devtools-on-call-test', 'service.version': (await import('../../core/version.js')).VERSION });
  });
});

describe('a traceparent on the HTTP request continues its trace (dist/cli.js over Streamable HTTP, OTLP/HTTP)', () => {
  let collector: MockUpstream;
  let circleci: MockUpstream;
  let server: HttpServerProcess;
  let client: Client;
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const parent = 'b7ad6b7169203331';

  before(async () => {
    [collector, circleci] = await Promise.all([startCollector(), MockUpstream.start()]);
    server = await startHttpServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        MCP_EGRESS_ALLOW: new URL(collector.url).host,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        CIRCLECI_BASE_URL: circleci.url,
        CIRCLECI_TOKEN: canary('CCIPAT_'),
      },
    });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'gw-5d1c7e' } },
    });
    client = kitClient('trace-test-client');
    await client.connect(transport);
  });
  after(async () => {
    for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
    await client?.close();
    await server?.stop();
    await Promise.all([collector, circleci].map((m) => m?.close()));
  });

  it("puts the call's span under the request's, keeps X-Request-Id as the request id, and hands both to the vendor", async () => {
    circleci.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
    await eventually('the call span reaches the collector', () => spansOf(collector).some((s) => s.name === 'tools/call circleci_get'));
    const call = spansOf(collector).find((s) => s.name === 'tools/call circleci_get')!;
    expect(call).to.include({ traceId, parentSpanId: parent, kind: 2 /* SERVER */ });
    expect(attributesOf(call.attributes)).to.include({ 'mcp_devtools.request.id': 'gw-5d1c7e', 'mcp_devtools.client.name': 'trace-test-client' });
    const sent = circleci.requests[0]!;
    expect(sent.headers['x-request-id']).to.equal('gw-5d1c7e');
    expect(sent.headers.traceparent).to.match(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const line = server.stderr.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'tool call');
    expect(line).to.include({ requestId: 'gw-5d1c7e', traceId, clientName: 'trace-test-client' });
  });
});

describe('tracing stays off without the OTEL_* variables (dist/cli.js over stdio)', () => {
  it('sends no traceparent upstream and writes no trace id on the call line', async () => {
    const circleci = await MockUpstream.start();
    const session = await connectStdio({ env: { CIRCLECI_BASE_URL: circleci.url, CIRCLECI_TOKEN: canary('CCIPAT_') } });
    try {
      circleci.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
      await session.client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
      const line = await session.waitForStderr('"tool call"');
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed).not.to.have.property('traceId');
      expect(parsed.requestId).to.match(/^[0-9a-f]{32}$/);
      expect(circleci.requests[0]!.headers).not.to.have.property('traceparent');
      expect(circleci.requests[0]!.headers['x-request-id']).to.equal(parsed.requestId);
    } finally {
      for (const line of session.stderr) leakAudit.transcript('stdio server stderr', line);
      await session.close();
      await circleci.close();
    }
  });
});
