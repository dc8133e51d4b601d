import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { readArtifact } from '../support/artifact-reader.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, jiraSearchBody, serveJiraSearch } from '../bench/jira-bodies.js';

const MiB = 1024 * 1024;
/** The structured value's size from which it spills to an artifact (the default of MCP_STRUCTURED_MAX_BYTES). */
const STRUCTURED_LIMIT_BYTES = 262_144;

/**
 * What a client gets back of a big value that spills, over Streamable HTTP from the built server, read back as a
 * program would: the artifact is the structured value `{"data": <the page>}` in JSON.stringify's form, so for
 * an upstream that sends compact JSON (Jira does) it is the upstream's own bytes wrapped, byte for byte, and for
 * one that sends whitespace it is still the value, never the upstream's bytes. This is what any way of making
 * the artifact (serialized from the value, or written as the bytes arrive) must keep.
 */
describe('a spilled value read back over Streamable HTTP: the upstream bytes, byte for byte', function () {
  this.timeout(180_000);
  let mock: MockUpstream;
  let server: HttpServerProcess;
  let client: Client;

  before(async () => {
    mock = await MockUpstream.start();
    server = await startHttpServer({ env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, MCP_STRUCTURED_OUTPUT: 'true', LOG_LEVEL: 'warn' } });
    client = await connectHttp(server.url);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
    await mock?.close();
  });

  /** jira_get of the search page the mock serves, JSON text, structured; the spilled envelope and the artifact's bytes. */
  async function spill(): Promise<{ structured: Record<string, unknown>; artifact: Buffer }> {
    const result = (await client.callTool(
      { name: 'jira_get', arguments: { path: SEARCH_PATH, outputFormat: 'json' } },
      { timeout: 170_000 },
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).to.equal(undefined);
    const structured = result.structuredContent as Record<string, unknown>;
    const artifactId = (structured.incomplete as { artifactId?: string } | undefined)?.artifactId;
    expect(artifactId, JSON.stringify(structured).slice(0, 300)).to.be.a('string');
    return { structured, artifact: (await readArtifact(client, artifactId!)).content };
  }

  for (const bytes of [16 * MiB, MiB]) {
    it(`a ${bytes / MiB} MiB Jira search page sent as compact JSON: the artifact is {"data":<the upstream bytes>}`, async () => {
      const body = jiraSearchBody(bytes);
      serveJiraSearch(mock, body);
      const { structured, artifact } = await spill();
      const expected = Buffer.concat([Buffer.from('{"data":'), body, Buffer.from('}')]);
      expect(artifact.length).to.equal(expected.length);
      expect(artifact.equals(expected), 'the artifact holds the upstream bytes, wrapped').to.equal(true);
      expect(structured).to.deep.equal({
        data: null,
        incomplete: {
          reason: 'size',
          bytes: expected.length,
          limitBytes: STRUCTURED_LIMIT_BYTES,
          artifactId: (structured.incomplete as { artifactId: string }).artifactId,
        },
      });
    });
  }

  it('a page sent with whitespace: the artifact is the value in compact JSON, not the upstream bytes', async () => {
    const page = JSON.parse(jiraSearchBody(2 * MiB).toString('utf8')) as unknown;
    serveJiraSearch(mock, Buffer.from(JSON.stringify(page, null, 2), 'utf8'));
    const { artifact } = await spill();
    expect(artifact.equals(Buffer.from(JSON.stringify({ data: page }), 'utf8'))).to.equal(true);
  });

  it('a secret the upstream echoes in a big page is redacted in the artifact', async () => {
    const page = JSON.parse(jiraSearchBody(5 * MiB).toString('utf8')) as { issues: Array<Record<string, unknown>> };
    page.issues[0]!.echo = `token ${JIRA_CREDENTIALS.ATLASSIAN_API_TOKEN}`;
    serveJiraSearch(mock, Buffer.from(JSON.stringify(page), 'utf8'));
    const { artifact } = await spill();
    page.issues[0]!.echo = 'token [REDACTED]';
    expect(artifact.equals(Buffer.from(JSON.stringify({ data: page }), 'utf8'))).to.equal(true);
  });
});
