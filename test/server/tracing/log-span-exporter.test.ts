// OTEL_TRACES_EXPORTER=console: spans as log lines on stderr. The SDK's own console exporter writes to stdout,
// which over stdio carries the MCP messages: one span there would break the client's connection.
import { SpanKind } from '@opentelemetry/api';
import { expect } from 'chai';
import { createLogger } from '../../../core/logging/logger.js';
import { serverTracer } from '../../../core/metrics/tracing.js';
import { startTracing } from '../../../server/tracing/start-tracing.js';

describe('OTEL_TRACES_EXPORTER=console', () => {
  const saved = process.env.OTEL_TRACES_EXPORTER;
  before(() => {
    process.env.OTEL_TRACES_EXPORTER = 'console';
  });
  after(() => {
    if (saved === undefined) delete process.env.OTEL_TRACES_EXPORTER;
    else process.env.OTEL_TRACES_EXPORTER = saved;
  });

  it('writes each span as a log line, and nothing on stdout', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', secrets: [], destination: { write: (line: string) => lines.push(line) } });
    const stdout: unknown[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: unknown) => stdout.push(chunk) > 0) as typeof process.stdout.write;
    try {
      const tracing = await startTracing({ logger });
      const span = serverTracer().startSpan('tools/call circleci_get', { kind: SpanKind.SERVER, attributes: { 'gen_ai.tool.name': 'circleci_get' } });
      span.end();
      await tracing.shutdown();
    } finally {
      process.stdout.write = write;
    }
    expect(stdout).to.deep.equal([]);
    const spans = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'span');
    expect(spans).to.have.length(1);
    expect(spans[0]).to.deep.include({
      span: 'tools/call circleci_get',
      kind: SpanKind.SERVER,
      parentSpanId: null,
      attributes: { 'gen_ai.tool.name': 'circleci_get' },
    });
    expect(spans[0]!.traceId).to.match(/^[0-9a-f]{32}$/);
  });
});
