import { expect } from 'chai';
import { circleciFixture } from '../../fixtures/circleci/circleci-api.js';
import { cloudWebApp, triggeredPipelineResult } from '../../../plugins/circleci/write-results.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'CCIPAT_typedWrites_0123456789abcdef';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const WORKFLOW = 'fda08377-fe7e-46b1-8992-3a7aaecac9c3';
const RERUN = `/api/v2/workflow/${WORKFLOW}/rerun`;
const TRIGGER = `/api/v2/project/${SLUG}/pipeline`;

describe('circleci_rerun_workflow and circleci_trigger_pipeline (in-process, CircleCI-shaped mock)', () => {
  for (const structured of [true, false]) {
    describe(`with MCP_STRUCTURED_OUTPUT=${structured}`, () => {
      const t = useVendorKernel({
        plugins: ['circleci'],
        env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: String(structured) }),
      });

      it('reruns from the failed jobs by default and answers with the new workflow', async () => {
        t.mock.on('POST', RERUN, { status: 202, body: circleciFixture('workflow-rerun.json') });
        const result = await t.kernel.call('circleci_rerun_workflow', { workflowId: WORKFLOW });
        const rerun = { workflowId: '0e53027b-521a-4c40-9042-47e72b3c63a3', rerunOf: WORKFLOW, fromFailed: true };
        expect(textOf(result)).to.equal(`workflowId: 0e53027b-521a-4c40-9042-47e72b3c63a3\nrerunOf: ${WORKFLOW}\nfromFailed: true`);
        expect(result.structuredContent).to.deep.equal(structured ? { data: rerun } : undefined);
        const sent = t.mock.requests[0]!;
        expect([sent.method, JSON.parse(sent.body), sent.headers['content-type'], sent.headers['circle-token']]).to.deep.equal([
          'POST',
          { from_failed: true },
          'application/json',
          TOKEN,
        ]);
      });

      it('triggers a pipeline with parameters and answers with its number, state and page', async () => {
        t.mock.on('POST', TRIGGER, { status: 201, body: circleciFixture('pipeline-created.json') });
        const result = await t.kernel.call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main', parameters: { deploy_prod: true, replicas: 3 } });
        expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ branch: 'main', parameters: { deploy_prod: true, replicas: 3 } });
        const started = {
          id: '8a1e0b6c-3f7d-4b52-9c1e-2d4f6a8b0c13',
          number: 26,
          state: 'pending',
          createdAt: '2026-10-07T16:31:02.770Z',
          branch: 'main',
          url: null,
        };
        expect(result.structuredContent).to.deep.equal(structured ? { data: started } : undefined);
        expect(textOf(result)).to.contain('number: 26\nstate: pending');
      });
    });
  }

  describe('bodies and errors', () => {
    const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN }) });

    it('reruns the whole workflow with fromFailed: false, and triggers the default branch without one', async () => {
      t.mock.on('POST', RERUN, { status: 202, body: circleciFixture('workflow-rerun.json') });
      t.mock.on('POST', TRIGGER, { status: 201, body: circleciFixture('pipeline-created.json') });
      await t.kernel.call('circleci_rerun_workflow', { workflowId: WORKFLOW, fromFailed: false });
      await t.kernel.call('circleci_trigger_pipeline', { projectSlug: SLUG });
      expect(t.mock.requests.map((r) => JSON.parse(r.body))).to.deep.equal([{ from_failed: false }, {}]);
    });

    it("reports CircleCI's refusal with its message, and never resends a write", async () => {
      t.mock.on('POST', RERUN, { status: 400, body: { message: 'Workflow has no failed jobs to rerun.' } });
      t.mock.on('POST', TRIGGER, { status: 502, body: { message: 'Bad Gateway' } });
      const rerun = await t.kernel.call('circleci_rerun_workflow', { workflowId: WORKFLOW });
      expect(rerun.isError).to.equal(true);
      expect(textOf(rerun)).to.contain('HTTP Status: 400');
      expect(textOf(rerun)).to.contain('Workflow has no failed jobs to rerun.');
      expect((await t.kernel.call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main' })).isError).to.equal(true);
      expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['POST', 'POST']);
    });

    it('names the token on a 401 without showing it', async () => {
      t.mock.on('POST', TRIGGER, { status: 401, body: { message: 'Invalid token provided.' } });
      const text = textOf(await t.kernel.call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main' }));
      expect(text).to.contain('HTTP Status: 401');
      expect(text).to.contain('CIRCLECI_TOKEN');
      expect(text).not.to.contain(TOKEN);
    });

    it('refuses a workflow id or parameters CircleCI would not take, before any request', async () => {
      for (const [tool, args] of [
        ['circleci_rerun_workflow', { workflowId: `${WORKFLOW}/../../me` }],
        ['circleci_trigger_pipeline', { projectSlug: SLUG, parameters: { deploy: { nested: true } } }],
        ['circleci_trigger_pipeline', { projectSlug: SLUG, branch: '' }],
      ] as const) {
        expect(textOf(await t.kernel.call(tool, args)), tool).to.contain('Code: invalid_arguments');
      }
      expect(t.mock.requests).to.have.length(0);
    });

    it('annotates the typed writes as writes that destroy nothing, and the reads as reads, the typed tools in circleci.pipelines (a default toolset)', () => {
      const tools = Object.fromEntries(t.kernel.kernel.listTools().map((tool) => [tool.name, tool]));
      for (const name of ['circleci_rerun_workflow', 'circleci_trigger_pipeline'])
        expect(tools[name]!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      for (const name of ['circleci_pipeline_status', 'circleci_job_tests', 'circleci_flaky_tests'])
        expect(tools[name]!.annotations).to.deep.include({ readOnlyHint: true });
      const toolsetOf = Object.fromEntries(
        t.kernel.kernel
          .definitions()
          .filter((d) => d.plugin === 'circleci')
          .map((d) => [d.spec.name, d.spec.toolset]),
      );
      for (const name of ['circleci_rerun_workflow', 'circleci_trigger_pipeline', 'circleci_pipeline_status', 'circleci_job_tests', 'circleci_flaky_tests'])
        expect(toolsetOf[name], name).to.equal('circleci.pipelines');
      expect(toolsetOf['circleci_get']).to.equal('circleci.rest');
    });
  });
});

describe("circleci_trigger_pipeline's web link", () => {
  const created = { status: 201, headers: new Headers(), body: circleciFixture('pipeline-created.json'), kind: 'json' as const, text: '' };

  it("links the pipeline's page in the web app on CircleCI cloud, the VCS spelt out", () => {
    const result = triggeredPipelineResult(created, { projectSlug: 'bb/acme/api', branch: 'main' }, cloudWebApp('https://circleci.com'));
    expect(result.url).to.equal('https://app.circleci.com/pipelines/bitbucket/acme/api/26');
  });

  it('gives no link for a CircleCI server installation, whose web address is not known', () => {
    expect(cloudWebApp('https://circleci.acme.internal')).to.equal(undefined);
    expect(triggeredPipelineResult(created, { projectSlug: SLUG }, undefined)).to.deep.include({ url: null, branch: null, number: 26 });
  });
});
