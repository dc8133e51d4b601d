import { expect } from 'chai';
import type { Principal } from '../../../core/identity/principal.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { structuredFixtureConfig } from '../structured/structured-fixtures.js';

const bob: Principal = { subject: 'bob', groups: [], via: 'tokens' };
const NOT_FOUND = 'Error: Artifact not found or expired\nCode: artifact_not_found';

/** A body about 100 KB serialized: over a 16 KiB bound, so the call leaves an artifact. */
const BIG = {
  issues: Array.from({ length: 400 }, (_, i) => ({ key: `PLAT-${i}`, fields: { summary: `Ünïcödé summary ${i} — ${'lorem ipsum '.repeat(15)}` } })),
  isLast: true,
};

describe('artifact_read', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  let now: number;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', '/rest/api/3/search/jql', { body: BIG });
    now = Date.parse('2026-10-07T16:20:11.402Z');
    kernel = await startTestKernel({
      configFile: structuredFixtureConfig(),
      env: {
        FIXTURE_BASE_URL: mock.url,
        FIXTURE_TOKEN: 'fixture-token',
        MCP_STRUCTURED_OUTPUT: 'true',
        MCP_STRUCTURED_MAX_BYTES: '16384',
        STREAMING_ARTIFACT_RETENTION_SECONDS: '10',
      },
      clock: { now: () => now },
    });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });

  async function spill(): Promise<{ artifactId: string; bytes: number }> {
    const result = await kernel.call('fixture_atlassian_get', { path: '/rest/api/3/search/jql' });
    return (result.structuredContent as Record<string, unknown>).incomplete as { artifactId: string; bytes: number };
  }

  it('answers one JSON object per chunk, in the documented key order, never long enough to be truncated', async () => {
    const { artifactId, bytes } = await spill();
    const result = await kernel.call('artifact_read', { artifactId });
    const text = textOf(result);
    const chunk = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(chunk)).to.deep.equal(['artifactId', 'mimeType', 'bytes', 'offset', 'nextOffset', 'eof', 'data']);
    expect(chunk).to.deep.include({ artifactId, mimeType: 'application/json', bytes, offset: 0, nextOffset: 24576, eof: false });
    expect(text.length).to.be.lessThan(40_000);
    expect(result).not.to.have.property('structuredContent');
  });

  it('reassembles the whole value, byte for byte, by following nextOffset to eof', async () => {
    const { artifactId, bytes } = await spill();
    const parts: Buffer[] = [];
    let calls = 0;
    for (let offset = 0, eof = false; !eof; calls++) {
      const chunk = JSON.parse(textOf(await kernel.call('artifact_read', { artifactId, offset }))) as { nextOffset: number; eof: boolean; data: string };
      parts.push(Buffer.from(chunk.data, 'base64'));
      expect(parts.at(-1)!.length).to.be.at.most(64 * 1024);
      offset = chunk.nextOffset;
      eof = chunk.eof;
    }
    const whole = Buffer.concat(parts);
    expect(whole.length).to.equal(bytes);
    expect(whole.toString('utf8')).to.equal(JSON.stringify({ data: BIG }));
    expect(calls).to.equal(Math.ceil(bytes / 24576));
  });

  it('gives another principal, an unknown id and an expired id exactly the same answer', async () => {
    const { artifactId } = await spill();
    const foreign = await kernel.call('artifact_read', { artifactId }, bob);
    const unknown = await kernel.call('artifact_read', { artifactId: 'f'.repeat(32) });
    expect(foreign.isError).to.equal(true);
    expect(textOf(foreign)).to.equal(NOT_FOUND);
    expect(textOf(unknown)).to.equal(NOT_FOUND);
    // The owner still reads it: the refusal was about who asked, not about the artifact.
    expect((await kernel.call('artifact_read', { artifactId })).isError).to.equal(undefined);
  });

  it('keeps artifacts for the retention period, clamped up to 300 s, then removes them', async () => {
    expect(kernel.logs.some((l) => l.includes('STREAMING_ARTIFACT_RETENTION_SECONDS=10 is outside 300-604800; using 300.'))).to.equal(true);
    const { artifactId } = await spill();
    now += 299_999;
    expect((await kernel.call('artifact_read', { artifactId })).isError).to.equal(undefined);
    now += 1;
    const expired = await kernel.call('artifact_read', { artifactId });
    expect(textOf(expired)).to.equal(NOT_FOUND);
    now -= 1; // even the clock going back does not bring it back: it was removed
    expect(textOf(await kernel.call('artifact_read', { artifactId }))).to.equal(NOT_FOUND);
  });

  it('says what to fix for a bad offset or missing id', async () => {
    const { artifactId, bytes } = await spill();
    expect(textOf(await kernel.call('artifact_read', { artifactId, offset: bytes + 1 }))).to.contain(`offset must be an integer from 0 to ${bytes}`);
    expect(textOf(await kernel.call('artifact_read', { artifactId, offset: -1 }))).to.contain('- offset:');
    expect(textOf(await kernel.call('artifact_read', { offset: 0 }))).to.contain('- artifactId: is required');
  });

  it('is listed text only, with no outputSchema, even with structured output on', () => {
    const entry = kernel.kernel.listTools('2025-11-25').find((t) => t.name === 'artifact_read')!;
    expect(entry).not.to.have.property('outputSchema');
    expect(entry.annotations).to.include({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(entry.inputSchema).to.deep.include({ required: ['artifactId'], additionalProperties: false });
  });
});
