import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';

const TOKEN = 'circle-stdioTestToken0123';
// A list that stays cacheable (a project's schedules): pipeline lists are status paths.
const LIST = '/project/gh/CircleCI-Public/api-preview-docs/schedule';

// The wire path: the official SDK client spawns dist/cli.js (npm run build) and talks JSON-RPC over stdio.
describe('CircleCI tools over stdio with the official SDK client', () => {
  let mock: MockUpstream;
  let session: StdioSession;

  before(async () => {
    mock = await MockUpstream.start();
    session = await connectStdio({ env: { CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: TOKEN, LOG_LEVEL: 'debug' } });
  });
  after(async () => {
    await session.close();
    await mock.close();
  });

  it('lists the eleven CircleCI tools with titles and read/write annotations', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.filter((t) => t.name.startsWith('circleci_')).map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).to.deep.equal([
      'circleci_delete',
      'circleci_flaky_tests',
      'circleci_get',
      'circleci_job_tests',
      'circleci_logs',
      'circleci_patch',
      'circleci_pipeline_status',
      'circleci_post',
      'circleci_put',
      'circleci_rerun_workflow',
      'circleci_trigger_pipeline',
    ]);
    // The client (2025-11-25) reads each tool's top-level title; annotations do not repeat it.
    expect(byName.circleci_get!.title).to.equal('CircleCI API GET');
    expect(byName.circleci_get!.annotations).to.deep.equal({ readOnlyHint: true, idempotentHint: true, openWorldHint: true });
    expect(byName.circleci_post!.annotations).to.deep.equal({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.circleci_delete!.annotations).to.deep.equal({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName.circleci_put!.annotations).to.deep.equal({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName.circleci_patch!.annotations).to.deep.equal({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    // Arguments with a default are optional: a model is never made to send them.
    expect(byName.circleci_logs!.inputSchema.required).to.deep.equal(['projectSlug', 'jobNumber']);
    expect(Object.keys(byName.circleci_get!.inputSchema.properties ?? {})).to.deep.equal(['path', 'queryParams', 'fresh', 'jq', 'outputFormat']);
  });

  it('serves a repeated read from the cache: one upstream request', async () => {
    mock.on('GET', `/api/v2${LIST}`, (req) => tokenPagedReply(req, pipelines(2)));
    const call = async (): Promise<{ data: unknown; cache: { hit: boolean } }> =>
      JSON.parse(
        textOf(
          (await session.client.callTool({ name: 'circleci_get', arguments: { path: LIST, jq: 'items[*].number', outputFormat: 'json' } })) as CallToolResult,
        ),
      );
    expect(await call()).to.deep.include({ data: [27, 26] });
    expect((await call()).cache.hit).to.equal(true);
    expect(mock.requests).to.have.length(1);
  });

  it('posts a write once, and never logs the token', async () => {
    mock.on('POST', '/api/v2/workflow/:id/cancel', { status: 202, body: { message: 'Accepted.' } });
    const result = (await session.client.callTool({
      name: 'circleci_post',
      arguments: { path: '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3/cancel' },
    })) as CallToolResult;
    expect(textOf(result)).to.equal('message: Accepted.');
    expect(mock.requests.filter((r) => r.method === 'POST')).to.have.length(1);
    expect(session.stderr.join('\n')).not.to.contain(TOKEN);
  });
});
