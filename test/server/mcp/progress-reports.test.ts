// What long calls report as they go (the ToolContext's progress, before the MCP server rates and numbers it):
// bytes of a log or diff as they arrive and as they are saved, workflows and pages of a fan-out, the steps of
// a read-before-write, the bytes of a spilled structured value. In-process against vendor-shaped mocks.
import { expect } from 'chai';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import type { ProgressReporter } from '../../../core/plugin/tool-context.js';
import { bitbucketText } from '../../fixtures/bitbucket/bitbucket-api.js';
import { circleciFixture, pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { FAILED_TEST_OUTPUT, serveJobLogs } from '../../fixtures/circleci/circleci-v1.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { githubFixture, jobLog, workflowRuns } from '../../fixtures/github/github-api.js';
import { pullRequestDiff } from '../../fixtures/github/github-repo-api.js';
import { ACCOUNT } from '../../plugins/atlassian/atlassian-calls.js';
import { textOf, type TestKernel } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

type Report = [done: number, total: number | undefined, message: string | undefined];

/** Calls a tool in-process with a reporter that keeps every report (no rate limit: that is the server's). */
async function callReporting(kernel: TestKernel, tool: string, args: Record<string, unknown>): Promise<{ text: string; reports: Report[] }> {
  const reports: Report[] = [];
  const progress: ProgressReporter = (done, total, message) => reports.push([done, total, message]);
  const result = await kernel.kernel.call(tool, args, LOCAL_PRINCIPAL, { progress });
  expect(result.isError, textOf(result)).to.equal(undefined);
  return { text: textOf(result), reports };
}

const withMessage = (reports: Report[], message: string): Report[] => reports.filter((r) => r[2] === message);
const savedBytes = (text: string): number => Number(/\((\d+) bytes, /.exec(text)?.[1]);

describe('progress reported by long calls (in-process, vendor-shaped mocks)', () => {
  describe('GitHub: log and diff downloads, and the artifact that keeps them', () => {
    const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_progressToken0123456789' }) });
    const LOGS = '/repos/octo-org/octo-repo/actions/jobs/399444496/logs';
    const log = Buffer.from(jobLog(4000), 'utf8');

    it('reports the bytes of a job log as they arrive, of its Content-Length, then the bytes saved as an artifact', async () => {
      t.mock.on('GET', LOGS, { headers: { 'content-type': 'text/plain', 'content-length': String(log.length) }, body: log, dripMs: 5, dripChunks: 6 });
      const { text, reports } = await callReporting(t.kernel, 'github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
      const reading = withMessage(reports, 'reading the log of job 399444496 of octo-org/octo-repo');
      expect(reading.length).to.be.at.least(6);
      expect(reading.every(([, total]) => total === log.length)).to.equal(true);
      expect(reading.map(([done]) => done)).to.deep.equal([...reading.map(([done]) => done)].sort((a, b) => a - b));
      expect(reading.at(-1)![0]).to.equal(log.length);
      const saving = withMessage(reports, 'saving the whole log as an artifact');
      const saved = savedBytes(text);
      expect(saving[0]).to.deep.equal([0, saved, 'saving the whole log as an artifact']);
      expect(saving.at(-1)).to.deep.equal([saved, saved, 'saving the whole log as an artifact']);
      expect(reports.indexOf(saving[0]!)).to.be.greaterThan(reports.indexOf(reading.at(-1)!));
    });

    it('reports bytes without a total when the body declares no length (chunked)', async () => {
      t.mock.on('GET', LOGS, { headers: { 'content-type': 'text/plain' }, body: log, dripMs: 2, dripChunks: 4 });
      const { reports } = await callReporting(t.kernel, 'github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
      const reading = withMessage(reports, 'reading the log of job 399444496 of octo-org/octo-repo');
      expect(reading.length).to.be.at.least(4);
      expect(reading.every(([, total]) => total === undefined)).to.equal(true);
      expect(reading.at(-1)![0]).to.equal(log.length);
    });

    it("reports a pull request diff's bytes as they arrive", async () => {
      const diff = pullRequestDiff(40);
      t.mock.on('GET', '/repos/octo-org/octo-repo/pulls/1347', {
        headers: { 'content-type': 'application/vnd.github.diff; charset=utf-8', 'content-length': String(Buffer.byteLength(diff)) },
        body: diff,
        dripMs: 2,
        dripChunks: 3,
      });
      const { reports } = await callReporting(t.kernel, 'github_get_pull_request_diff', { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 });
      const reading = withMessage(reports, 'reading the diff of pull request #1347 of octo-org/octo-repo');
      expect(reading.at(-1)).to.deep.equal([Buffer.byteLength(diff), Buffer.byteLength(diff), 'reading the diff of pull request #1347 of octo-org/octo-repo']);
    });

    it('reports nothing for a plain read', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/pulls/1347', { body: githubFixture('pull-request.json') });
      const { reports } = await callReporting(t.kernel, 'github_get_pull_request', { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 });
      expect(reports).to.deep.equal([]);
    });
  });

  describe('structured output: the bytes of a value spilled to an artifact', () => {
    const t = useVendorKernel({
      plugins: ['github'],
      env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_progressToken0123456789', MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '16384' }),
    });

    it('reports the serialized value as it is saved, ending with its whole size', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/actions/runs', { body: { total_count: 200, workflow_runs: workflowRuns(200) } });
      const reports: Report[] = [];
      const result = await t.kernel.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo' }, LOCAL_PRINCIPAL, {
        progress: (done, total, message) => reports.push([done, total, message]),
      });
      const incomplete = (result.structuredContent as { incomplete: { bytes: number; artifactId: string } }).incomplete;
      const saving = withMessage(reports, 'saving the whole structured value as an artifact');
      expect(saving.length).to.be.at.least(2);
      expect(saving.at(-1)![0]).to.equal(incomplete.bytes);
      expect(incomplete.artifactId).to.match(/^[0-9a-f]{32}$/);
    });
  });

  describe('CircleCI: the fan-out of circleci_pipeline_status and the pages of circleci_job_tests', () => {
    const SLUG = 'gh/CircleCI-Public/api-preview-docs';
    const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'CCIPAT_progress_0123456789abcdef' }) });

    it('reports each workflow whose jobs were read, of the workflows shown', async () => {
      const latest = pipelines(3)[0]!;
      t.mock.on('GET', `/api/v2/project/${SLUG}/pipeline`, (req) => tokenPagedReply(req, pipelines(3)));
      t.mock.on('GET', `/api/v2/pipeline/${latest.id}/workflow`, { body: circleciFixture('workflow-list.json') });
      t.mock.on('GET', '/api/v2/workflow/:id/job', { body: circleciFixture('workflow-jobs.json') });
      const { reports } = await callReporting(t.kernel, 'circleci_pipeline_status', { projectSlug: SLUG, branch: 'feature/design-new-api' });
      expect(reports).to.deep.equal([
        [1, 2, "reading the jobs of pipeline 28's workflows"],
        [2, 2, "reading the jobs of pipeline 28's workflows"],
      ]);
    });

    it('reports each page of test results read, the total known at the last page', async () => {
      const page = circleciFixture<{ items: Array<Record<string, unknown>> }>('job-tests.json').items;
      const items = Array.from({ length: 25 }, (_, i) => ({ ...page[i % 3]!, name: `test ${i}` }));
      t.mock.on('GET', `/api/v2/project/${SLUG}/1262/tests`, (req) => tokenPagedReply(req, items));
      const { reports } = await callReporting(t.kernel, 'circleci_job_tests', { projectSlug: SLUG, jobNumber: 1262 });
      expect(reports.map(([done, total]) => [done, total])).to.deep.equal([
        [1, undefined],
        [2, 2],
      ]);
      expect(reports.at(-1)![2]).to.equal('reading the test results of job 1262: 25 so far');
    });
  });

  describe('Bitbucket: a step log downloaded from its storage', () => {
    const t = useVendorKernel({
      plugins: ['bitbucket'],
      otherMocks: 1,
      // The storage mock is on loopback, which the egress guard refuses unless it is allowed.
      env: (url, [storage]) => ({
        ATLASSIAN_BITBUCKET_USERNAME: 'mia-k',
        ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-ATBB-progress-5d1e',
        BITBUCKET_BASE_URL: url,
        MCP_EGRESS_ALLOW: new URL(storage!).host,
      }),
    });

    it("reports the log's bytes as the storage sends them", async () => {
      const [pipeline, step] = ['{4d2e9a71-0c3b-4f5e-8a6d-1b7c9e2f3a4d}', '{a3b4c5d6-e7f8-4a9b-8c0d-1e2f3a4b5c6d}'];
      const log = bitbucketText('step-log.txt');
      const storage = t.others[0]!;
      const path = `/2.0/repositories/acme/checkout-service/pipelines/${encodeURIComponent(pipeline)}/steps/${encodeURIComponent(step)}/log`;
      t.mock.on('GET', path, { status: 307, headers: { location: `${storage.url}/pipelines-logs/step-a3b4.log?Signature=abc` } });
      storage.on('GET', '/pipelines-logs/step-a3b4.log', { headers: { 'content-type': 'application/octet-stream' }, body: log, dripMs: 2, dripChunks: 3 });
      const args = { workspace: 'acme', repoSlug: 'checkout-service', pipelineUuid: pipeline, stepUuid: step };
      const { reports } = await callReporting(t.kernel, 'bb_get_pipeline_step_log', args);
      const message = `reading the log of step ${step} of the pipeline ${pipeline} of acme/checkout-service`;
      expect(withMessage(reports, message).at(-1)?.[0]).to.equal(Buffer.byteLength(log));
    });
  });

  describe("CircleCI: the outputs of a job's steps", () => {
    const t = useVendorKernel({
      plugins: ['circleci'],
      otherMocks: 1,
      env: (url, [storage]) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'circle-progress0123456789', MCP_EGRESS_ALLOW: new URL(storage!).host }),
    });

    it('reports each output read, of the outputs chosen', async () => {
      serveJobLogs(t.mock, t.others[0]!, { 0: 'Starting\n', 99: 'env\n', 101: 'Cloning\n', 102: 'npm ci\n', 103: FAILED_TEST_OUTPUT, 104: 'results\n' });
      const { reports } = await callReporting(t.kernel, 'circleci_logs', {
        projectSlug: 'gh/CircleCI-Public/api-preview-docs',
        jobNumber: 1262,
        failedOnly: false,
      });
      const reading = withMessage(reports, 'reading the output of each step');
      expect(reading.length).to.be.greaterThan(1);
      expect(reading.map(([done]) => done)).to.deep.equal(reading.map((_, i) => i + 1));
      expect(reading.every(([, total]) => total === reading.length)).to.equal(true);
      // Each report is an output fetched from the storage host, not one refused before it was asked.
      expect(t.others[0]!.requests).to.have.length(reading.length);
    });
  });

  describe('Jira and Confluence: the reads before a write', () => {
    const jira = useVendorKernel({ plugins: ['jira'], env: (url) => ({ ...ACCOUNT, JIRA_BASE_URL: url, JIRA_DEPLOYMENT: 'cloud' }) });
    const confluence = useVendorKernel({ plugins: ['confluence'], env: (url) => ({ ...ACCOUNT, CONFLUENCE_BASE_URL: url, CONFLUENCE_DEPLOYMENT: 'cloud' }) });

    it('jira_transition_issue: transitions listed, then the transition made, of three requests', async () => {
      jira.mock.on('GET', '/rest/api/3/issue/PLAT-1421/transitions', jsonReply(payload('jira/transitions.json')));
      jira.mock.on('POST', '/rest/api/3/issue/PLAT-1421/transitions', { status: 204 });
      jira.mock.on('GET', '/rest/api/3/issue/PLAT-1421', jsonReply('{"fields":{"status":{"name":"In Progress"}}}'));
      const { reports } = await callReporting(jira.kernel, 'jira_transition_issue', { issueKey: 'PLAT-1421', transition: 'in progress' });
      expect(reports).to.deep.equal([
        [1, 3, 'listed the transitions of PLAT-1421'],
        [2, 3, 'moved PLAT-1421 through "In Progress"; reading its status'],
      ]);
    });

    it('conf_update_page: the current version read before the save (and nothing when the version is given)', async () => {
      confluence.mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(payload('confluence/page.json')));
      confluence.mock.on('PUT', '/wiki/api/v2/pages/163841', jsonReply(payload('confluence/created-page.json')));
      const read = await callReporting(confluence.kernel, 'conf_update_page', { pageId: '163841', body: 'New text.' });
      expect(read.reports).to.deep.equal([[1, 2, 'read the current version of page 163841; saving it']]);
      const given = await callReporting(confluence.kernel, 'conf_update_page', { pageId: '163841', title: 'Runbook', body: 'New text.', version: 7 });
      expect(given.reports).to.deep.equal([]);
    });
  });
});
