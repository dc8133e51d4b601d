import { expect } from 'chai';
import { circleciFixture, pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'CCIPAT_typedReads_0123456789abcdef';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const PIPELINE = '/api/v2/project/gh/CircleCI-Public/api-preview-docs/pipeline';
const FAILED_WORKFLOW = 'fda08377-fe7e-46b1-8992-3a7aaecac9c3';
const DOCS_WORKFLOW = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';

type Json = Record<string, unknown>;
interface Status {
  pipeline: Json;
  workflows: Array<{ name: string; status: string; jobs: Array<{ name: string; number: number; status: string }> }>;
}
interface Tests {
  tests: Array<{ result: string; message: string }>;
  note?: string;
}

describe('circleci_pipeline_status, circleci_job_tests and circleci_flaky_tests (in-process, CircleCI-shaped mock)', () => {
  for (const structured of [true, false]) {
    describe(`circleci_pipeline_status with MCP_STRUCTURED_OUTPUT=${structured}`, () => {
      const t = useVendorKernel({
        plugins: ['circleci'],
        // The texts a build wrote are fenced by default (test/plugins/provenance/circleci-labels.test.ts): off here, whose assertions are about the reads.
        env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: String(structured), MCP_FENCE: 'false' }),
      });

      it("gives the branch's latest pipeline with every workflow and its jobs, in one call", async () => {
        const latest = pipelines(3)[0]!;
        t.mock.on('GET', PIPELINE, (req) => tokenPagedReply(req, pipelines(3)));
        t.mock.on('GET', `/api/v2/pipeline/${latest.id}/workflow`, { body: circleciFixture('workflow-list.json') });
        t.mock.on('GET', `/api/v2/workflow/${FAILED_WORKFLOW}/job`, { body: circleciFixture('workflow-jobs.json') });
        t.mock.on('GET', `/api/v2/workflow/${DOCS_WORKFLOW}/job`, { body: { items: [], next_page_token: null } });
        const result = await t.kernel.call('circleci_pipeline_status', { projectSlug: SLUG, branch: 'feature/design-new-api', outputFormat: 'json' });
        const status = JSON.parse(textOf(result)) as Status;
        expect(status.pipeline).to.deep.include({ id: latest.id, number: 28, state: 'created', trigger: 'webhook', commit: 'Design the new API' });
        expect(status.workflows.map((w) => [w.name, w.status, w.jobs.map((j) => `${j.name}#${j.number}:${j.status}`)])).to.deep.equal([
          ['build-and-test', 'failed', ['build#1261:success', 'test#1262:running']],
          ['docs', 'success', []],
        ]);
        expect(result.structuredContent).to.deep.equal(structured ? { data: status } : undefined);
        expect(t.mock.requests[0]!.url).to.equal(`${PIPELINE}?branch=feature%2Fdesign-new-api`);
        expect(t.mock.requests).to.have.length(4);
        expect(t.mock.requests.every((r) => r.headers['circle-token'] === TOKEN)).to.equal(true);
      });
    });
  }

  describe('bounds and errors', () => {
    const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN, MCP_FENCE: 'false' }) });
    const call = async (tool: string, args: Json): Promise<{ text: string; isError: boolean | undefined }> => {
      const result = await t.kernel.call(tool, { ...args, outputFormat: 'json' });
      return { text: textOf(result), isError: result.isError };
    };

    it('says so when the branch has no pipeline, with one request', async () => {
      t.mock.on('GET', PIPELINE, { body: { items: [], next_page_token: null } });
      expect(JSON.parse((await call('circleci_pipeline_status', { projectSlug: SLUG, branch: 'nope' })).text)).to.deep.equal({
        projectSlug: SLUG,
        branch: 'nope',
        pipeline: null,
        workflows: [],
      });
      expect(t.mock.requests).to.have.length(1);
    });

    it('reads at most ten workflows and three pages of jobs each, and says what it left out', async () => {
      const latest = pipelines(1)[0]!;
      const workflow = circleciFixture<Json>('workflow.json');
      const workflows = Array.from({ length: 12 }, (_, i) => ({ ...workflow, id: `fda08377-fe7e-46b1-8992-${String(i).padStart(12, '0')}`, name: `wf-${i}` }));
      const job = circleciFixture<{ items: Json[] }>('workflow-jobs.json').items[0]!;
      t.mock.on('GET', PIPELINE, { body: { items: [latest], next_page_token: null } });
      t.mock.on('GET', `/api/v2/pipeline/${latest.id}/workflow`, { body: { items: workflows, next_page_token: null } });
      t.mock.on('GET', '/api/v2/workflow/:id/job', (req) =>
        tokenPagedReply(
          req,
          Array.from({ length: 70 }, (_, i) => ({ ...job, job_number: i + 1 })),
        ),
      );
      const jq = '{workflows: length(workflows), more: moreWorkflows, jobs: workflows[*].jobs | [0] | length(@), moreJobs: workflows[0].moreJobs}';
      const status = JSON.parse((await call('circleci_pipeline_status', { projectSlug: SLUG, branch: 'main', jq })).text) as Json;
      expect(status).to.deep.equal({
        workflows: 10,
        more: `Only the first 10 workflows are shown; list them all with circleci_get "/pipeline/${latest.id}/workflow".`,
        jobs: 60,
        moreJobs: `Only the first 60 jobs are shown; list them all with circleci_get "/workflow/${workflows[0]!.id}/job".`,
      });
      expect(t.mock.requests).to.have.length(2 + 10 * 3);
    });

    it("reports an unknown project with CircleCI's message", async () => {
      t.mock.on('GET', '/api/v2/project/gh/acme/nope/pipeline', { status: 404, body: { message: 'Project not found' } });
      const { text, isError } = await call('circleci_pipeline_status', { projectSlug: 'gh/acme/nope', branch: 'main' });
      expect(isError).to.equal(true);
      expect(text).to.contain('HTTP Status: 404');
      expect(text).to.contain('Project not found');
    });

    it('refuses a project slug that is not one, before any request', async () => {
      for (const projectSlug of ['gh/acme/api/../../me', 'gh/acme', 'https://circleci.com/gh/acme/api']) {
        expect((await call('circleci_pipeline_status', { projectSlug, branch: 'main' })).text).to.contain('Code: invalid_arguments');
      }
      expect(t.mock.requests).to.have.length(0);
    });

    it("lists a job's failed tests by default, counting every result, over all pages", async () => {
      const page = circleciFixture<{ items: Json[] }>('job-tests.json').items;
      const items = Array.from({ length: 25 }, (_, i) => ({ ...page[i % 3]!, name: `${page[i % 3]!.name} ${i}` }));
      t.mock.on('GET', `/api/v2/project/${SLUG}/1262/tests`, (req) => tokenPagedReply(req, items));
      const tests = JSON.parse((await call('circleci_job_tests', { projectSlug: SLUG, jobNumber: 1262 })).text) as Tests & Json;
      expect(tests).to.deep.include({ total: 25, counts: { success: 9, failure: 8, skipped: 8 }, shown: 'failed' });
      expect(tests.tests.map((x) => x.result)).to.deep.equal(Array(8).fill('failure'));
      expect(tests.tests[0].message).to.contain('AssertionError: expected 502 to equal 200');
      expect(t.mock.requests.map((r) => r.query.get('page-token') === null)).to.deep.equal([true, false]);
    });

    it('lists every test with failedOnly: false, and explains an empty result', async () => {
      t.mock.on('GET', `/api/v2/project/${SLUG}/1262/tests`, { body: circleciFixture('job-tests.json') });
      t.mock.on('GET', `/api/v2/project/${SLUG}/1261/tests`, { body: { items: [], next_page_token: null } });
      const all = JSON.parse((await call('circleci_job_tests', { projectSlug: SLUG, jobNumber: 1262, failedOnly: false })).text) as Tests;
      expect(all.tests.map((x) => x.result)).to.deep.equal(['success', 'failure', 'skipped']);
      const none = JSON.parse((await call('circleci_job_tests', { projectSlug: SLUG, jobNumber: 1261 })).text) as Tests;
      expect(none.note).to.contain('No test results: the job stores none (store_test_results)');
    });

    it("gives the project's flaky tests in the shape CircleCI serves (snake_case), from its description's hyphenated keys too", async () => {
      t.mock.on('GET', `/api/v2/insights/${SLUG}/flaky-tests`, { body: circleciFixture('flaky-tests.json') });
      const result = await t.kernel.call('circleci_flaky_tests', { projectSlug: SLUG, jq: 'flaky_tests[*].test_name' });
      expect(textOf(result)).to.equal('[2]: retries a webhook after a timeout,renders the cart badge');
    });
  });
});
