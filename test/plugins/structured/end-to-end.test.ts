import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { SERVER_NAME, VERSION } from '../../../core/version.js';
import { connectHttp, connectStdio, startHttpServer } from '../../support/sdk-client.js';
import { REFUSAL_META } from '../../fixtures/plugins/fixture-faulty.js';
import { githubFixture, githubLink, writeStructuredFixtureConfig } from './structured-fixtures.js';

const runsArgs = { owner: 'octo-org', repo: 'octo-repo' };

/** A page of 40 runs built from GitHub's example run: about 180 KB, over a 64 KiB bound. */
function bigPage(): Record<string, unknown> {
  const page = githubFixture('workflow-run-paginated');
  const run = (page.workflow_runs as Record<string, unknown>[])[0]!;
  return { total_count: 61, workflow_runs: Array.from({ length: 40 }, (_, i) => ({ ...run, id: 30433642 + i, display_title: `Ünïcödé ${i} 🚀` })) };
}

interface Transport {
  name: string;
  open(env: Record<string, string>, config?: Record<string, unknown>): Promise<{ client: Client; close(): Promise<void> }>;
}

const TRANSPORTS: Transport[] = [
  {
    name: 'stdio',
    async open(env, config) {
      const cwd = writeStructuredFixtureConfig(mkdtempSync(join(tmpdir(), 'mcp-devtools-e2e-')), config);
      const session = await connectStdio({ cwd, env });
      return { client: session.client, close: () => session.close() };
    },
  },
  {
    name: 'Streamable HTTP',
    async open(env, config) {
      const cwd = writeStructuredFixtureConfig(mkdtempSync(join(tmpdir(), 'mcp-devtools-e2e-')), config);
      const server = await startHttpServer({ cwd, env });
      const client = await connectHttp(server.url);
      return {
        client,
        close: async () => {
          await client.close();
          await server.stop();
        },
      };
    },
  },
];

async function readArtifact(client: Client, artifactId: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const result = (await client.callTool({ name: 'artifact_read', arguments: { artifactId, offset } })) as CallToolResult;
    const first = result.content[0];
    if (first?.type !== 'text' || result.isError) throw new Error(`artifact_read failed: ${JSON.stringify(result)}`);
    const chunk = JSON.parse(first.text) as { nextOffset: number; eof: boolean; data: string };
    parts.push(Buffer.from(chunk.data, 'base64'));
    offset = chunk.nextOffset;
    eof = chunk.eof;
  }
  return Buffer.concat(parts);
}

describe('structured output end to end, with the official SDK client', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let env: Record<string, string>;

  before(async () => {
    mock = await MockUpstream.start();
    env = { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'e2e-token' };
  });
  after(async () => {
    await mock.close();
  });
  beforeEach(() => mock.reset());

  for (const transport of TRANSPORTS) {
    describe(`over ${transport.name}`, () => {
      it('flag off: no outputSchema, no structuredContent, byte-identical to a server without the plugin', async () => {
        mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: githubFixture('workflow-run-paginated'), headers: { link: githubLink(mock.url, 1, 2) } });
        const off = await transport.open(env);
        const without = await transport.open(env, { disable: ['structured'] });
        try {
          const [listedOff, listedWithout] = [await off.client.listTools(), await without.client.listTools()];
          expect(JSON.stringify(listedOff)).to.equal(JSON.stringify(listedWithout));
          expect(listedOff.tools.some((t) => t.outputSchema !== undefined)).to.equal(false);
          const [a, b] = [
            await off.client.callTool({ name: 'fixture_list_runs', arguments: runsArgs }),
            await without.client.callTool({ name: 'fixture_list_runs', arguments: runsArgs }),
          ];
          expect(JSON.stringify(a)).to.equal(JSON.stringify(b));
          expect(a).not.to.have.property('structuredContent');
        } finally {
          await off.close();
          await without.close();
        }
      });

      it('flag on: schemas advertised, results validated by the client, oversized page read back whole through artifact_read', async () => {
        const page = bigPage();
        mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: page, headers: { link: githubLink(mock.url, 1, 3) } });
        const on = await transport.open({ ...env, MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '65536' });
        try {
          const { tools } = await on.client.listTools(); // a 2026-07-28 client takes schemas of any root
          const advertised = tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
          expect(advertised).to.have.members([
            'fixture_get',
            'fixture_list_runs',
            'fixture_circle_get',
            'fixture_atlassian_get',
            'faulty_no_value',
            'faulty_array_root',
            'faulty_refused',
          ]);

          const small = (await on.client.callTool({ name: 'fixture_list_runs', arguments: { ...runsArgs, jq: 'workflow_runs[0:2].id' } })) as CallToolResult;
          expect(small.structuredContent).to.deep.equal({ data: [30433642, 30433643], nextPage: 2 });

          const big = (await on.client.callTool({ name: 'fixture_list_runs', arguments: runsArgs })) as CallToolResult;
          const full = Buffer.from(JSON.stringify({ data: page, nextPage: 2 }), 'utf8');
          const incomplete = (big.structuredContent as Record<string, unknown>).incomplete as {
            reason: string;
            bytes: number;
            limitBytes: number;
            artifactId: string;
          };
          expect(big.structuredContent).to.deep.include({ data: null, nextPage: 2 });
          expect(incomplete).to.deep.include({ reason: 'size', bytes: full.length, limitBytes: 65536 });
          expect((await readArtifact(on.client, incomplete.artifactId)).equals(full)).to.equal(true);

          // A third-party array-rooted schema goes to this 2026-07-28 client, with an array value (older clients
          // get text only: test/e2e/compatibility-matrix.test.ts).
          const array = (await on.client.callTool({ name: 'faulty_array_root', arguments: {} })) as CallToolResult;
          expect(array.structuredContent).to.deep.equal([3, 1, 2]);
          const unavailable = (await on.client.callTool({ name: 'faulty_no_value', arguments: {} })) as CallToolResult;
          expect(unavailable.structuredContent).to.deep.equal({ data: null, incomplete: { reason: 'unavailable', bytes: 0, limitBytes: 0, artifactId: null } });
          const refused = (await on.client.callTool({ name: 'faulty_refused', arguments: {} })) as CallToolResult;
          expect(refused.isError).to.equal(true);
          expect(refused).not.to.have.property('structuredContent');
          // A plugin's own copy of ToolError keeps its code and _meta; 2026-07-28 adds who answered.
          expect(refused._meta).to.deep.equal({ ...REFUSAL_META, 'io.modelcontextprotocol/serverInfo': { name: SERVER_NAME, version: VERSION } });
        } finally {
          await on.close();
        }
      });
    });
  }
});
