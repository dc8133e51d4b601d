import { expect } from 'chai';
import { tracingWanted } from '../../../server/tracing/tracing-wanted.js';

describe('tracingWanted: OpenTelemetry only when its variables ask for it', () => {
  it('is off with none of them', () => {
    expect(tracingWanted({})).to.equal(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'mcp', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=1' })).to.equal(false);
  });

  it('is on with an OTLP endpoint or a traces exporter', () => {
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.equal(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).to.equal(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).to.equal(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console' })).to.equal(true);
  });

  it('is off when told so, whatever else is set', () => {
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.equal(false);
    expect(tracingWanted({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.equal(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).to.equal(false);
  });
});
