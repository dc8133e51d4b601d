// The OTLP exporter's endpoint passes the egress guard, as a webhook receiver does (issue 49): a collector at a
// loopback, private or metadata address is reached only when MCP_EGRESS_ALLOW names it. An endpoint refused on
// what it is (or resolves to) stops the start with a sentence; one allowed gets the spans, over a real exporter
// and a loopback collector stand-in.
import { SpanKind } from '@opentelemetry/api';
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { NO_EGRESS_ALLOWANCE, parseEgressAllow } from '../../../core/http/egress-guard.js';
import { createLogger } from '../../../core/logging/logger.js';
import { serverTracer } from '../../../core/metrics/tracing.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { guardedOtlpEndpoint } from '../../../server/tracing/otlp-endpoint.js';
import { startTracing } from '../../../server/tracing/start-tracing.js';
import { eventually } from '../../support/enterprise-fixture.js';

const refusal = (env: Record<string, string>, allow = ''): Promise<unknown> =>
  guardedOtlpEndpoint(env, allow === '' ? NO_EGRESS_ALLOWANCE : parseEgressAllow(allow)).catch((e: unknown) => e);

describe('OTLP exporter endpoint: held to the egress guard', () => {
  it('refuses a collector at a metadata or private address with a sentence naming the variable and what to allow', async () => {
    const metadata = await refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://169.254.169.254:4318' });
    expect(metadata).to.be.instanceOf(StartupError);
    expect((metadata as Error).message).to.equal(
      'Traces are not sent to http://169.254.169.254:4318/v1/traces (OTEL_EXPORTER_OTLP_ENDPOINT): 169.254.169.254 is a cloud metadata address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.',
    );
    const internal = await refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://10.0.3.9/otlp/v1/traces' });
    expect((internal as Error).message).to.equal(
      'Traces are not sent to https://10.0.3.9/otlp/v1/traces (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): 10.0.3.9 is a private (RFC 1918) address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.',
    );
  });

  it('judges a name on what it resolves to: the default endpoint (localhost:4318) is refused until allowed', async () => {
    const named = await refusal({});
    expect((named as Error).message).to.match(
      /^Traces are not sent to http:\/\/localhost:4318\/v1\/traces \(the OTLP default, as OTEL_EXPORTER_OTLP_ENDPOINT is unset\): localhost resolves to (127\.0\.0\.1|::1), which is a loopback address\. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW\.$/,
    );
    expect(await refusal({}, 'localhost:4318')).to.deep.include({ url: 'http://localhost:4318/v1/traces' });
    expect(await refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://10.0.3.9:4318/' }, '10.0.0.0/8')).to.deep.include({ url: 'http://10.0.3.9:4318/v1/traces' });
  });

  describe('through the tracer a server starts', () => {
    let collector: MockUpstream;
    const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    const logger = createLogger({ level: 'silent', secrets: [] });
    before(async () => {
      collector = await MockUpstream.start();
      collector.on('POST', '/v1/traces', { body: {} });
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
    });
    after(async () => {
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
      await collector.close();
    });

    it('refuses to start tracing to the loopback collector MCP_EGRESS_ALLOW does not name, sending nothing', async () => {
      const error = await startTracing({ logger }).catch((e: unknown) => e);
      expect((error as Error).message).to.equal(
        `Traces are not sent to ${collector.url}/v1/traces (OTEL_EXPORTER_OTLP_ENDPOINT): 127.0.0.1 is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.`,
      );
      expect(collector.requests).to.have.length(0);
    });

    it('exports spans to it once MCP_EGRESS_ALLOW names it', async () => {
      const tracing = await startTracing({ logger, egressAllow: parseEgressAllow(new URL(collector.url).host) });
      serverTracer().startSpan('tools/call circleci_get', { kind: SpanKind.SERVER }).end();
      await tracing.shutdown();
      await eventually('the collector has the span', () => collector.requests.length > 0);
      expect(collector.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /v1/traces']);
      expect(collector.requests[0]!.body).to.contain('tools/call circleci_get');
    });

    it('reaches it by a name, each connection judged on what the name resolves to (localhost, allowed by its addresses)', async () => {
      collector.requests.length = 0;
      const port = new URL(collector.url).port;
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://localhost:${port}`;
      try {
        const tracing = await startTracing({ logger, egressAllow: parseEgressAllow(`127.0.0.1:${port},[::1]:${port}`) });
        serverTracer().startSpan('tools/call jira_get', { kind: SpanKind.SERVER }).end();
        await tracing.shutdown();
        await eventually('the collector has the span', () => collector.requests.length > 0);
        expect(collector.requests[0]!.body).to.contain('tools/call jira_get');
      } finally {
        process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
      }
    });
  });
});
