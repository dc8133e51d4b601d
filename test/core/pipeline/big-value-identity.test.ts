import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { renderValue } from '../../../plugins/toon/render.js';
import { truncateForModel } from '../../../plugins/truncation/truncate-text.js';
import { jiraSearchBody } from '../../bench/jira-bodies.js';
import { BIG_VALUE_BYTES } from '../../../core/pipeline/answer.js';
import { LARGE_STRING_BYTES } from '../../../core/text/large-string.js';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

const MiB = 1024 * 1024;
/** Bodies past the size from which a value is handled in pieces, so that these tests take that path. */
const BIG = BIG_VALUE_BYTES + MiB;
/** Bodies past the size from which a body is parsed from its bytes and rendered in pieces, short of BIG. */
const MID = Math.max(MiB, 2 * LARGE_STRING_BYTES);
/**
 * Bodies short of a large string as bytes, past one as text: a Jira page has curly quotes, so its text is UTF-16,
 * and its JSON pretty-printed is longer still. Parsed from its bytes and rendered in pieces as MID is.
 */
const WIDE = Math.round(0.75 * LARGE_STRING_BYTES);
const TOKEN = 'identity-api-token-7f3a';
/** The structured value's size from which it spills to an artifact (the default of MCP_MAX_STRUCTURED_BYTES). */
const STRUCTURED_LIMIT_BYTES = 262_144;
const PATH = '/rest/api/3/search/jql';

/**
 * Values JSON.stringify writes in ways a hand-written serializer easily gets wrong: escapes, lone and paired
 * surrogates, -0, exponents, empty containers, keys that need escaping, deep nesting.
 */
const EDGES = {
  'quo"te\\key\n': ['\u0000\u001f\u007f', '\ud83d\ude80 rocket', 'lone \ud800 high', 'lone \udc00 low', '\u2028\u2029'],
  numbers: [0, -0, 1e21, 1.5e-7, -123456789.125, 2 ** 53 + 2],
  empty: { a: [], o: {}, s: '', n: null, t: true, f: false },
  deep: { a: { b: { c: { d: [[[{ e: [1, [2, [3, {}]]] }]]] } } } },
  __proto__key: { ['__proto__']: 1 },
};

/** An artifact read back through artifact_read, following nextOffset until eof. */
async function readArtifact(kernel: TestKernel, artifactId: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const chunk = JSON.parse(textOf(await kernel.call('artifact_read', { artifactId, offset }, LOCAL_PRINCIPAL))) as {
      nextOffset: number;
      eof: boolean;
      data: string;
    };
    parts.push(Buffer.from(chunk.data, 'base64'));
    ({ nextOffset: offset, eof } = chunk);
  }
  return Buffer.concat(parts);
}

/** The call's text, the file it names, the structured content and the artifact it names. */
interface Observed {
  text: string;
  savedFile?: string;
  structured: Record<string, unknown>;
  artifact?: Buffer;
}

/**
 * Byte for byte what a large spilled value produces: the model text (the first 40,000 characters and the
 * guidance, as the reference cuts), the whole rendering in the file it names, and the structured value in its
 * artifact, each exactly what rendering and serializing the whole value at once would give. Pinned before the
 * big-value path was made to stream, so that streaming cannot change a byte.
 */
describe('a big value through the pipeline: the same bytes whichever way it is produced', function () {
  this.timeout(120_000);
  let mock: MockUpstream;
  let kernel: TestKernel;
  let rawDir: string;

  before(async () => {
    mock = await MockUpstream.start();
    rawDir = mkdtempSync(join(tmpdir(), 'big-value-identity-'));
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['jira'] }) },
      env: {
        JIRA_BASE_URL: mock.url,
        ATLASSIAN_USER_EMAIL: 'identity@acme.example',
        ATLASSIAN_API_TOKEN: TOKEN,
        MCP_STRUCTURED_OUTPUT: 'true',
        MCP_RAW_RESPONSE_DIR: rawDir,
      },
    });
  });
  after(async () => {
    await kernel?.close();
    await mock?.close();
  });

  async function call(body: Buffer | string, outputFormat: 'json' | 'toon', chunked = false): Promise<Observed> {
    mock.reset();
    mock.on('GET', PATH, () => ({ status: 200, headers: { 'content-type': 'application/json' }, body, ...(chunked ? { dripMs: 0, dripChunks: 8 } : {}) }));
    const result: CallToolResult = await kernel.call('jira_get', { path: PATH, outputFormat });
    expect(result.isError, textOf(result).slice(0, 300)).to.equal(undefined);
    const text = textOf(result);
    const savedFile = /saved at: `([^`]+)`/.exec(text)?.[1];
    const structured = result.structuredContent as Record<string, unknown>;
    const artifactId = (structured.incomplete as { artifactId?: string } | undefined)?.artifactId;
    return { text, savedFile, structured, artifact: artifactId ? await readArtifact(kernel, artifactId) : undefined };
  }

  function expectWhole(observed: Observed, value: unknown, outputFormat: 'json' | 'toon'): void {
    const rendering = renderValue(value, outputFormat);
    const serialized = JSON.stringify({ data: value });
    expect(observed.savedFile, 'the text names the file of the whole rendering').to.be.a('string');
    expect(observed.text === truncateForModel(rendering, observed.savedFile), 'the model text').to.equal(true);
    // UTF-8 bytes compared: a lone surrogate is written as a replacement character, as it always was.
    expect(readFileSync(observed.savedFile!).equals(Buffer.from(rendering, 'utf8')), 'the saved file holds the whole rendering').to.equal(true);
    if (Buffer.byteLength(serialized) <= STRUCTURED_LIMIT_BYTES) {
      // Small enough to be inline: the structured content serializes to the same bytes.
      expect(JSON.stringify(observed.structured) === serialized, 'the structured value, inline').to.equal(true);
      return;
    }
    expect(observed.structured).to.deep.equal({
      data: null,
      incomplete: {
        reason: 'size',
        bytes: Buffer.byteLength(serialized),
        limitBytes: STRUCTURED_LIMIT_BYTES,
        artifactId: (observed.structured.incomplete as { artifactId: string }).artifactId,
      },
    });
    expect(observed.artifact!.equals(Buffer.from(serialized, 'utf8')), 'the artifact holds the whole structured value').to.equal(true);
  }

  // BIG takes the big-value path (JSON made as it is written); MID and WIDE, past a large string only, the one
  // where the body is parsed from its bytes and the rendering made in pieces, all at once.
  const size = (bytes: number): string => (bytes >= MiB ? `${bytes / MiB} MiB` : `${Math.round(bytes / 1024)} KiB`);
  for (const bytes of [BIG, MID, WIDE]) {
    for (const outputFormat of ['json', 'toon'] as const) {
      it(`a ${size(bytes)} Jira search page (${outputFormat})`, async () => {
        const body = jiraSearchBody(bytes);
        expectWhole(await call(body, outputFormat), JSON.parse(body.toString('utf8')), outputFormat);
      });
    }

    it(`a ${size(bytes)} page full of edge cases, read without a Content-Length`, async () => {
      const page = JSON.parse(jiraSearchBody(bytes).toString('utf8')) as { issues: Array<Record<string, unknown>> };
      for (let i = 0; i < page.issues.length; i += 7) page.issues[i]!.edges = EDGES;
      const body = JSON.stringify(page);
      for (const outputFormat of ['json', 'toon'] as const) expectWhole(await call(body, outputFormat, true), JSON.parse(body), outputFormat);
    });
  }

  it('one huge string and one huge array of numbers', async () => {
    const body = JSON.stringify({ log: 'Ünïcödé line\n'.repeat(Math.ceil(BIG / 17)), samples: Array.from({ length: 150_000 }, (_, i) => i * 1.25) });
    for (const outputFormat of ['json', 'toon'] as const) expectWhole(await call(body, outputFormat), JSON.parse(body), outputFormat);
  });

  it('a big body cut off part way (a reset after half its declared length): a clear error, nothing saved, and the next call whole', async () => {
    const body = jiraSearchBody(BIG);
    const savedBefore = readdirSync(rawDir).length;
    mock.reset();
    mock.on('GET', PATH, () => ({ status: 200, headers: { 'content-type': 'application/json' }, body, reset: 'mid-body' }));
    const cut: CallToolResult = await kernel.call('jira_get', { path: PATH, outputFormat: 'json' });
    expect(cut.isError).to.equal(true);
    expect(textOf(cut)).to.contain('Code: upstream_unreachable');
    expect(cut.structuredContent, 'no structured value, so no artifact named').to.equal(undefined);
    expect(readdirSync(rawDir), 'no file of a half rendering').to.have.length(savedBefore);
    expectWhole(await call(body, 'json'), JSON.parse(body.toString('utf8')), 'json');
  });

  for (const [bytes, outputFormat] of [
    [BIG, 'json'],
    [MID, 'json'],
    [MID, 'toon'],
    [WIDE, 'json'],
  ] as const) {
    it(`a secret the upstream echoes is redacted in the text, the file and the artifact alike (${size(bytes)}, ${outputFormat})`, async () => {
      const page = JSON.parse(jiraSearchBody(bytes).toString('utf8')) as { issues: Array<Record<string, unknown>> };
      page.issues[0]!.echo = `token ${TOKEN} and again ${TOKEN}`;
      page.issues.at(-1)!.echo = TOKEN;
      const observed = await call(JSON.stringify(page), outputFormat);
      page.issues[0]!.echo = 'token [REDACTED] and again [REDACTED]';
      page.issues.at(-1)!.echo = '[REDACTED]';
      expectWhole(observed, page, outputFormat);
      expect(observed.text).to.include('[REDACTED]');
    });
  }
});
