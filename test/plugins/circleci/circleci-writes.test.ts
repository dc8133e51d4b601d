import { expect } from 'chai';
import { CircleCiReadEnvelope } from '../../../plugins/circleci/read-envelope.js';
import { circleciFixture, pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'circle-writeTestToken0123456789';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const WORKFLOW = 'fda08377-fe7e-46b1-8992-3a7aaecac9c3';

describe('circleci_post, circleci_put, circleci_patch and circleci_delete (in-process)', () => {
  const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN }) });

  it("POSTs the body as JSON and renders CircleCI's answer (no cache envelope)", async () => {
    t.mock.on('POST', `/api/v2/project/${SLUG}/pipeline`, { status: 201, body: circleciFixture('pipeline-created.json') });
    const result = await t.kernel.call('circleci_post', {
      path: `/project/${SLUG}/pipeline`,
      body: { branch: 'main', parameters: { deploy_prod: true } },
      jq: '{number: number, state: state}',
    });
    expect(textOf(result)).to.equal('number: 26\nstate: pending');
    const sent = t.mock.requests[0]!;
    expect(JSON.parse(sent.body)).to.deep.equal({ branch: 'main', parameters: { deploy_prod: true } });
    expect(sent.headers['content-type']).to.equal('application/json');
    expect(sent.headers['circle-token']).to.equal(TOKEN);
  });

  it('POSTs without a body when none is given (cancel a workflow)', async () => {
    t.mock.on('POST', `/api/v2/workflow/${WORKFLOW}/cancel`, { status: 202, body: circleciFixture('message.json') });
    const result = await t.kernel.call('circleci_post', { path: `/workflow/${WORKFLOW}/cancel` });
    expect(textOf(result)).to.equal('message: Accepted.');
    expect(t.mock.requests[0]!.body).to.equal('');
    expect(t.mock.requests[0]!.headers['content-type']).to.equal(undefined);
  });

  it('PUTs a context environment variable with its JSON body', async () => {
    const context = 'f31d7249-b7b1-4729-b3c4-e0baf5d4fa11';
    t.mock.on('PUT', `/api/v2/context/${context}/environment-variable/:name`, (req) => ({
      body: { variable: req.params.name, created_at: '2026-10-07T16:20:11.402Z', updated_at: '2026-10-07T16:20:11.402Z', context_id: context },
    }));
    const result = await t.kernel.call('circleci_put', {
      path: `/context/${context}/environment-variable/DEPLOY_KEY`,
      body: { value: 'not-a-secret' },
      jq: 'variable',
    });
    expect(textOf(result)).to.equal('DEPLOY_KEY');
    const sent = t.mock.requests[0]!;
    expect([sent.method, JSON.parse(sent.body), sent.headers['content-type'], sent.headers['circle-token']]).to.deep.equal([
      'PUT',
      { value: 'not-a-secret' },
      'application/json',
      TOKEN,
    ]);
  });

  it('PATCHes a schedule and renders the updated schedule', async () => {
    const schedule = '7ad3e1a2-0f0b-4c5e-9d3c-1f2e3d4c5b6a';
    t.mock.on('PATCH', `/api/v2/schedule/${schedule}`, (req) => ({ body: { id: schedule, name: 'nightly', ...JSON.parse(req.body), project_slug: SLUG } }));
    const result = await t.kernel.call('circleci_patch', { path: `/schedule/${schedule}`, body: { description: 'every night at 3' }, outputFormat: 'json' });
    expect(JSON.parse(textOf(result))).to.deep.equal({ id: schedule, name: 'nightly', description: 'every night at 3', project_slug: SLUG });
    expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['PATCH']);
  });

  it('DELETEs with query parameters', async () => {
    t.mock.on('DELETE', `/api/v2/project/${SLUG}/envvar/:name`, { body: { message: 'Environment variable deleted.' } });
    const result = await t.kernel.call('circleci_delete', {
      path: `/project/${SLUG}/envvar/DEPLOY_KEY`,
      queryParams: { reason: 'rotated' },
      outputFormat: 'json',
    });
    expect(JSON.parse(textOf(result))).to.deep.equal({ message: 'Environment variable deleted.' });
    expect(t.mock.requests[0]!.params.name).to.equal('DEPLOY_KEY');
    expect(t.mock.requests[0]!.query.get('reason')).to.equal('rotated');
  });

  it('shows a write that succeeded without a body as a success, never as an error', async () => {
    t.mock.on('DELETE', '/api/v2/schedule/:id', { status: 204 });
    const result = await t.kernel.call('circleci_delete', { path: '/schedule/7ad3e1a2-0f0b-4c5e-9d3c-1f2e3d4c5b6a' });
    expect(result.isError).to.equal(undefined);
    expect(textOf(result)).to.equal('CircleCI answered 204 to DELETE /schedule/7ad3e1a2-0f0b-4c5e-9d3c-1f2e3d4c5b6a with no body: the request succeeded.');
  });

  it('shows a non-JSON success body as text rather than failing a write that went through', async () => {
    t.mock.on('POST', `/api/v2/workflow/${WORKFLOW}/rerun`, { status: 202, headers: { 'content-type': 'text/plain' }, body: 'Accepted' });
    const result = await t.kernel.call('circleci_post', { path: `/workflow/${WORKFLOW}/rerun`, body: { from_failed: true } });
    expect(result.isError).to.equal(undefined);
    expect(textOf(result)).to.equal('Accepted');
  });

  it("reports a refused write with CircleCI's message and status", async () => {
    t.mock.on('POST', `/api/v2/project/${SLUG}/pipeline`, { status: 400, body: { message: 'Branch not found: nope' } });
    const result = await t.kernel.call('circleci_post', { path: `/project/${SLUG}/pipeline`, body: { branch: 'nope' } });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 400');
    expect(textOf(result)).to.contain('Branch not found: nope');
  });

  for (const reply of [
    { status: 502 },
    { status: 503 },
    { status: 504 },
    { reset: 'before-headers' as const },
    { reset: 'mid-body' as const, body: { message: 'Accepted.' } },
  ]) {
    const what = reply.reset ?? reply.status;
    it(`never retries a write (${what}): sent once, then an error`, async () => {
      t.mock.on('POST', `/api/v2/workflow/${WORKFLOW}/cancel`, { body: { message: 'Service Unavailable' }, ...reply });
      t.mock.on('DELETE', `/api/v2/project/${SLUG}/envvar/KEY`, { body: { message: 'Service Unavailable' }, ...reply });
      t.mock.on('PUT', '/api/v2/context/c1/environment-variable/KEY', { body: { message: 'Service Unavailable' }, ...reply });
      t.mock.on('PATCH', '/api/v2/schedule/s1', { body: { message: 'Service Unavailable' }, ...reply });
      const results = [
        await t.kernel.call('circleci_post', { path: `/workflow/${WORKFLOW}/cancel` }),
        await t.kernel.call('circleci_delete', { path: `/project/${SLUG}/envvar/KEY` }),
        await t.kernel.call('circleci_put', { path: '/context/c1/environment-variable/KEY', body: { value: 'v' } }),
        await t.kernel.call('circleci_patch', { path: '/schedule/s1', body: { name: 'n' } }),
      ];
      expect(results.map((r) => r.isError)).to.deep.equal([true, true, true, true]);
      expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['POST', 'DELETE', 'PUT', 'PATCH']);
    });
  }

  it('never caches a write, nor serves a read from one', async () => {
    const schedules = `/project/${SLUG}/schedule`; // a cacheable list
    t.mock.on('POST', `/api/v2${schedules}`, { status: 201, body: { id: 's1', name: 'nightly' } });
    t.mock.on('PATCH', '/api/v2/schedule/s1', { body: { id: 's1', name: 'nightly' } });
    t.mock.on('GET', `/api/v2${schedules}`, (req) => tokenPagedReply(req, pipelines(2)));
    await t.kernel.call('circleci_post', { path: schedules, body: { name: 'nightly' } });
    await t.kernel.call('circleci_post', { path: schedules, body: { name: 'nightly' } });
    await t.kernel.call('circleci_patch', { path: '/schedule/s1', body: { name: 'nightly' } });
    await t.kernel.call('circleci_patch', { path: '/schedule/s1', body: { name: 'nightly' } });
    const read = JSON.parse(textOf(await t.kernel.call('circleci_get', { path: schedules, jq: 'items[*].number', outputFormat: 'json' })));
    expect(read).to.deep.include({ data: [27, 26] });
    expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['POST', 'POST', 'PATCH', 'PATCH', 'GET']);
  });

  for (const tool of ['circleci_post', 'circleci_put', 'circleci_patch', 'circleci_delete']) {
    it(`${tool} refuses an unsafe path without any request`, async () => {
      for (const path of ['https://evil.example/api/v2/me', '/workflow/%2e%2e/%2e%2e/admin']) {
        const result = await t.kernel.call(tool, { path });
        expect(textOf(result)).to.contain('Code: invalid_path');
      }
      expect(t.mock.requests).to.have.length(0);
    });
  }

  it('declares the CircleCI read envelope and the cache on circleci_get only, and one identity for all three', () => {
    const definitions = t.kernel.kernel.definitions().filter((d) => d.plugin === 'circleci');
    const byName = Object.fromEntries(definitions.map((d) => [d.spec.name, d]));
    expect(byName.circleci_get!.spec).to.deep.include({ envelope: CircleCiReadEnvelope, cache: true });
    for (const write of ['circleci_post', 'circleci_put', 'circleci_patch', 'circleci_delete', 'circleci_logs']) {
      expect(byName[write]!.spec.envelope).to.equal(undefined);
      expect(byName[write]!.spec.cache).to.equal(undefined);
    }
    expect(new Set(definitions.map((d) => d.upstream!.identity))).to.have.property('size', 1);
    expect(byName.circleci_get!.upstream!.identity).to.deep.include({ vendor: 'circleci', credential: 'CIRCLECI_TOKEN', environment: 'default' });
  });

  it('annotates the writes as such in tools/list, delete as destructive', () => {
    const tools = Object.fromEntries(t.kernel.kernel.listTools().map((t) => [t.name, t]));
    expect(tools.circleci_get!.annotations).to.deep.include({ readOnlyHint: true, openWorldHint: true });
    expect(tools.circleci_post!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.circleci_put!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(tools.circleci_patch!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.circleci_delete!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: true });
    expect(tools.circleci_logs!.annotations).to.deep.include({ readOnlyHint: true, openWorldHint: true });
  });
});

describe('CircleCI writes under MCP_READ_ONLY', () => {
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['circleci'] }) },
      env: { CIRCLECI_TOKEN: TOKEN, MCP_READ_ONLY: 'true' },
    });
  });
  after(() => kernel.close());

  it('are hidden, and only the reads remain', () => {
    expect(
      kernel.kernel
        .listTools()
        .map((t) => t.name)
        .filter((n) => n.startsWith('circleci_')),
    ).to.deep.equal(['circleci_get', 'circleci_logs', 'circleci_pipeline_status', 'circleci_job_tests', 'circleci_flaky_tests']);
  });
});
