// Artifacts as MCP resources from the built server, as the official SDK client reads them: the resource_link a
// result carries, resources/read of it by its owner, and for anyone else the same not-found as artifact_read.
// Over stdio, and over Streamable HTTP with two principals (MCP_AUTH_MODE=tokens), for a client of each era.
import type { CallToolResult, Client, ResourceLink } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import type { VersionNegotiation } from '../../server/testing/sdk-client.js';
import { jobLog } from '../fixtures/github/github-api.js';
import { tokensFileFolder } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const LOGS = '/repos/octo-org/octo-repo/actions/jobs/399444496/logs';
const ARGS = { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 };
const ERAS: ReadonlyArray<[string, VersionNegotiation]> = [
  ['2026-07-28', { mode: 'auto' }],
  ['2025-11-25', { mode: 'legacy' }],
];

const linkOf = (result: CallToolResult): ResourceLink => {
  const link = result.content.find((b): b is ResourceLink => b.type === 'resource_link');
  if (link === undefined) throw new Error(`no resource_link in ${JSON.stringify(result.content).slice(0, 500)}`);
  return link;
};
const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

/** An artifact read whole with artifact_read, encoding utf8: what the resource's text must equal. */
async function readWithTool(client: Client, artifactId: string): Promise<string> {
  let text = '';
  for (let offset = 0, eof = false; !eof;) {
    const chunk = JSON.parse(textOf(await client.callTool({ name: 'artifact_read', arguments: { artifactId, offset, encoding: 'utf8' } }))) as {
      data: string;
      nextOffset: number;
      eof: boolean;
    };
    text += chunk.data;
    ({ nextOffset: offset, eof } = chunk);
  }
  return text;
}

describe('artifacts as MCP resources (dist/cli.js, the SDK client)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  const env = (): Record<string, string> => ({ GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghp_e2eResourcesToken0123456789' });

  before(async () => {
    github = await MockUpstream.start();
    github.on('GET', LOGS, { headers: { 'content-type': 'text/plain' }, body: jobLog(500) });
  });
  after(async () => {
    await github?.close();
  });

  for (const [era, versionNegotiation] of ERAS) {
    it(`over stdio, ${era}: the result links its artifact, and resources/read gives what artifact_read gives`, async () => {
      const session = await connectStdio({ env: env(), versionNegotiation });
      try {
        expect(session.client.getNegotiatedProtocolVersion()).to.equal(era);
        expect(session.client.getServerCapabilities()?.resources).to.deep.equal({});
        const result = await session.client.callTool({ name: 'github_get_job_logs', arguments: ARGS });
        const link = linkOf(result);
        const artifactId = link.uri.slice('mcp-devtools://artifacts/'.length);
        expect(textOf(result)).to.contain(`is artifact ${artifactId}: read it with artifact_read`);
        const read = await session.client.readResource({ uri: link.uri });
        expect(read.contents).to.deep.equal([{ uri: link.uri, mimeType: 'text/plain', text: await readWithTool(session.client, artifactId) }]);
        expect(link.size).to.equal(Buffer.byteLength((read.contents[0] as { text: string }).text));
      } finally {
        await session.close();
      }
    });
  }

  describe('over Streamable HTTP, two principals (MCP_AUTH_MODE=tokens)', () => {
    const alice = canary('mcp-alice-');
    const bob = canary('mcp-bob-');
    let server: HttpServerProcess;

    before(async () => {
      const tokens = tokensFileFolder('artifact-resources-', [
        { token: alice, subject: 'alice' },
        { token: bob, subject: 'bob' },
      ]);
      server = await startHttpServer({ cwd: tokens.dir, env: { ...env(), ...tokens.env } });
    });
    after(async () => {
      for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
      await server?.stop();
    });

    for (const [era, versionNegotiation] of ERAS) {
      it(`${era}: the owner reads the linked artifact; the other principal gets the not-found artifact_read gives`, async () => {
        const owner = await connectHttp(server.url, alice, versionNegotiation);
        const other = await connectHttp(server.url, bob, versionNegotiation);
        try {
          expect(owner.getNegotiatedProtocolVersion()).to.equal(era);
          const link = linkOf(await owner.callTool({ name: 'github_get_job_logs', arguments: ARGS }));
          const artifactId = link.uri.slice('mcp-devtools://artifacts/'.length);
          const read = await owner.readResource({ uri: link.uri });
          expect(read.contents).to.deep.equal([{ uri: link.uri, mimeType: 'text/plain', text: await readWithTool(owner, artifactId) }]);

          const refused = await other.readResource({ uri: link.uri }).then(
            () => undefined,
            (error: { code: number; message: string; data?: unknown }) => error,
          );
          expect(refused).to.deep.include({ code: -32602, data: { uri: link.uri } });
          expect(refused!.message).to.contain('Artifact not found or expired');
          const viaTool = await other.callTool({ name: 'artifact_read', arguments: { artifactId } });
          expect(viaTool.isError).to.equal(true);
          expect(textOf(viaTool)).to.contain('Error: Artifact not found or expired');
          // Bob's own calls are linked to Bob's artifacts, which Alice cannot read either.
          const bobs = linkOf(await other.callTool({ name: 'github_get_job_logs', arguments: ARGS }));
          expect(bobs.uri).not.to.equal(link.uri);
          expect(
            await owner.readResource({ uri: bobs.uri }).then(
              () => 'read',
              () => 'refused',
            ),
          ).to.equal('refused');
        } finally {
          await owner.close();
          await other.close();
        }
      });
    }
  });
});
