import { expect } from 'chai';
import { bitbucketError, bitbucketJson, bitbucketPage, bitbucketText, pipelines } from '../../fixtures/bitbucket/bitbucket-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const ACCOUNT = { ATLASSIAN_BITBUCKET_USERNAME: 'mia-k', ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-ATBB-pipelines-5d1e' };
const REPO = { workspace: 'acme', repoSlug: 'checkout-service' };
const PIPELINES = '/2.0/repositories/acme/checkout-service/pipelines';
const PIPELINE = '{4d2e9a71-0c3b-4f5e-8a6d-1b7c9e2f3a4d}';
const STEPS = `${PIPELINES}/${encodeURIComponent(PIPELINE)}/steps`;
const TEST_STEP = '{a3b4c5d6-e7f8-4a9b-8c0d-1e2f3a4b5c6d}';
const LOG = `${STEPS}/${encodeURIComponent(TEST_STEP)}/log`;

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('bb_list_pipelines, bb_get_pipeline_step_log and bb_run_pipeline (in-process, Bitbucket-shaped mock)', () => {
  for (const structured of [true, false]) {
    describe(`bb_list_pipelines with MCP_STRUCTURED_OUTPUT=${structured}`, () => {
      const t = useVendorKernel({
        plugins: ['bitbucket'],
        env: (url) => ({ ...ACCOUNT, BITBUCKET_BASE_URL: url, MCP_FENCE: 'false', MCP_STRUCTURED_OUTPUT: String(structured) }),
      });

      it('asks for the newest first on every page, though the next URL drops the sort', async () => {
        const all = pipelines(14);
        t.mock.on('GET', PIPELINES, (req) => bitbucketPage(req, all));
        const first = await t.kernel.call('bb_list_pipelines', { ...REPO, jq: 'values[*].build_number', outputFormat: 'json' });
        const page1 = JSON.parse(textOf(first)) as { data: number[]; nextCursor: string };
        expect(first.structuredContent).to.deep.equal(structured ? page1 : undefined);
        const page2 = JSON.parse(
          textOf(await t.kernel.call('bb_list_pipelines', { ...REPO, cursor: page1.nextCursor, jq: 'values[*].build_number', outputFormat: 'json' })),
        );
        expect([...page1.data, ...page2.data]).to.deep.equal(all.map((p) => p.build_number));
        expect(page2.nextCursor).to.equal(null);
        expect(t.mock.requests.map((r) => r.url)).to.deep.equal([`${PIPELINES}?sort=-created_on`, `${PIPELINES}?sort=-created_on&page=2`]);
      });
    });
  }

  describe('bb_get_pipeline_step_log', () => {
    const t = useVendorKernel({
      plugins: ['bitbucket'],
      otherMocks: 1,
      env: (url, [storage]) => ({ ...ACCOUNT, BITBUCKET_BASE_URL: url, MCP_FENCE: 'false', MCP_EGRESS_ALLOW: new URL(storage!).host }),
    });
    const log = bitbucketText('step-log.txt');

    it("follows the redirect to the log's storage without the credentials, and shows the cleaned tail", async () => {
      const storage = t.others[0]!;
      t.mock.on('GET', LOG, { status: 307, headers: { location: `${storage.url}/pipelines-logs/step-a3b4.log?Signature=abc&Expires=1741255791` } });
      storage.on('GET', '/pipelines-logs/step-a3b4.log', { headers: { 'content-type': 'application/octet-stream' }, body: log });
      const text = textOf(await t.kernel.call('bb_get_pipeline_step_log', { ...REPO, pipelineUuid: PIPELINE, stepUuid: TEST_STEP, tailLines: 20 }));
      expect(text).to.match(
        new RegExp(`^Log of step ${escape(TEST_STEP)} of pipeline ${escape(PIPELINE)} of acme/checkout-service: the last 20 of 31 lines\\.\\n`),
      );
      expect(text).to.contain('waiting for postgres on db:5432  [repeated 3 times]');
      expect(text).not.to.contain('\u001b[');
      expect(text.endsWith('Merged test suites, total number tests is 0, with 0 failures and 0 errors.')).to.equal(true);
      expect(t.mock.requests[0]!.headers.authorization).to.match(/^Basic /);
      expect(storage.requests[0]!.headers.authorization).to.equal(undefined);
      expect(storage.requests[0]!.query.get('Signature')).to.equal('abc');
    });

    it('without a step, reads the steps and shows the first failed one, listing them all', async () => {
      t.mock.on('GET', STEPS, { body: bitbucketJson('pipeline-steps.json') });
      t.mock.on('GET', LOG, { headers: { 'content-type': 'text/plain' }, body: log });
      const text = textOf(await t.kernel.call('bb_get_pipeline_step_log', { ...REPO, pipelineUuid: PIPELINE.slice(1, -1), tailLines: 3 }));
      expect(text.split('\n')[0]).to.equal(`Log of step "Test" of pipeline ${PIPELINE.slice(1, -1)} of acme/checkout-service: the last 3 of 31 lines.`);
      expect(text).to.contain('Steps: 1 "Build" (COMPLETED, SUCCESSFUL), 2 "Test" (COMPLETED, FAILED) <- shown, 3 "Deploy to staging" (COMPLETED, NOT_RUN).');
      const id = /is artifact ([0-9a-f]{32})/.exec(text)![1];
      const whole = JSON.parse(textOf(await t.kernel.call('artifact_read', { artifactId: id, encoding: 'utf8' }))) as { data: string };
      expect(whole.data.split('\n').filter((l) => l.includes('waiting for postgres'))).to.have.length(3);
      expect(t.mock.requests.map((r) => r.url)).to.deep.equal([`${STEPS}?pagelen=100`, LOG]);
    });

    it('says a missing log may be a step that has not started', async () => {
      t.mock.on('GET', LOG, bitbucketError(404, 'Log not found'));
      const result = await t.kernel.call('bb_get_pipeline_step_log', { ...REPO, pipelineUuid: PIPELINE, stepUuid: TEST_STEP });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('A step that has not started yet has no log.');
      expect(textOf(result)).to.contain('HTTP Status: 404');
    });

    it('refuses a uuid that is not one, before any request', async () => {
      const result = await t.kernel.call('bb_get_pipeline_step_log', { ...REPO, pipelineUuid: '{../../user}', stepUuid: TEST_STEP });
      expect(textOf(result)).to.contain('Code: invalid_arguments');
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('bb_run_pipeline', () => {
    const t = useVendorKernel({
      plugins: ['bitbucket'],
      env: (url) => ({ ...ACCOUNT, BITBUCKET_BASE_URL: url, MCP_FENCE: 'false', MCP_STRUCTURED_OUTPUT: 'true' }),
    });

    it('runs a custom pipeline with variables and answers with the pipeline started and its page', async () => {
      t.mock.on('POST', PIPELINES, {
        status: 201,
        headers: { location: `https://api.bitbucket.org${PIPELINES}/{b7c8d9e0}` },
        body: bitbucketJson('pipeline-created.json'),
      });
      const result = await t.kernel.call('bb_run_pipeline', { ...REPO, branch: 'main', pipeline: 'deploy-staging', variables: { DEPLOY_ENV: 'staging' } });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({
        target: { type: 'pipeline_ref_target', ref_type: 'branch', ref_name: 'main', selector: { type: 'custom', pattern: 'deploy-staging' } },
        variables: [{ key: 'DEPLOY_ENV', value: 'staging' }],
      });
      const started = {
        uuid: '{b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e}',
        buildNumber: 1289,
        state: 'PENDING',
        branch: 'main',
        pipeline: 'deploy-staging',
        url: 'https://bitbucket.org/acme/checkout-service/pipelines/results/1289',
      };
      expect(result.structuredContent).to.deep.equal({ data: started });
      expect(textOf(result)).to.contain('buildNumber: 1289\nstate: PENDING');
    });

    it("runs the branch's own pipeline when none is named, and sends it once though Bitbucket fails", async () => {
      t.mock.on('POST', PIPELINES, bitbucketError(503, 'Service unavailable'));
      const result = await t.kernel.call('bb_run_pipeline', { ...REPO, branch: 'fix/plat-1421-body-size' });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({
        target: { type: 'pipeline_ref_target', ref_type: 'branch', ref_name: 'fix/plat-1421-body-size' },
      });
      expect(result.isError).to.equal(true);
      expect(t.mock.requests).to.have.length(1);
    });

    it("reports Bitbucket's refusal (no such custom pipeline) with its status", async () => {
      t.mock.on('POST', PIPELINES, bitbucketError(400, 'Could not find a pipeline for custom: deploy-prod in bitbucket-pipelines.yml'));
      const result = await t.kernel.call('bb_run_pipeline', { ...REPO, branch: 'main', pipeline: 'deploy-prod' });
      expect(textOf(result)).to.contain('HTTP Status: 400');
      expect(textOf(result)).to.contain('Could not find a pipeline for custom: deploy-prod');
    });

    it('refuses a variable name Bitbucket would not take, before any request', async () => {
      const result = await t.kernel.call('bb_run_pipeline', { ...REPO, branch: 'main', variables: { 'DEPLOY ENV': 'x' } });
      expect(textOf(result)).to.contain('Code: invalid_arguments');
      expect(t.mock.requests).to.have.length(0);
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
