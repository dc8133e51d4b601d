import type { CallToolResult } from '@modelcontextprotocol/client';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import {
  bitbucketStepLog,
  checkRun,
  checkRunsReply,
  combinedStatusReply,
  failedJob,
  failedJobLog,
  testCaseReasonsReply,
  testCasesReply,
} from '../../fixtures/ci/ci-fixtures.js';
import { connectStdio, connectStdioAs, type Connected } from '../../support/sdk-client.js';
import { stdioDispatch, taskSession } from '../../support/task-session.js';
import { FLAKY_SNAKE, serveCircleciFailure } from './ci-mocks.js';

// `wait: true` on the tools that start a run (GitHub rerun, CircleCI trigger, Bitbucket run), over stdio from the
// built server against vendor-shaped mocks: the write, then a bounded wait with progress, answering the final
// status and, on failure, what failed; a task for a client that declares the tasks extension; without `wait` the
// write answers at once, as before. A failed run is answered with its failure report (the ci plugin's, as
// ci_failure_report writes it): the lines around the error from the job's log, and the whole log's artifact.

const RUN = '/repos/octo-org/octo-repo/actions/runs/30433642';
const GH_ARGS = { owner: 'octo-org', repo: 'octo-repo', runId: 30433642 };
const SLUG = 'gh/acme/api';
const PIPELINE_ID = '8a1e0b6c-3f7d-4b52-9c1e-2d4f6a8b0c13';
const WORKFLOW_ID = 'fda08377-fe7e-46b1-8992-3a7aaecac9c3';
const BB = '/2.0/repositories/acme/checkout-service/pipelines';
const BB_UUID = '{b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e}';
const BB_PIPELINE = `${BB}/${encodeURIComponent(BB_UUID)}`;
const BB_ARGS = { workspace: 'acme', repoSlug: 'checkout-service', branch: 'main' };

type Reply = { status?: number; body?: unknown };

/**
 * A GitHub run that finishes on the `doneAt`th poll: build passes first, then test ends with `conclusion`. For
 * its first `oldAttemptPolls` polls GitHub still shows the attempt before the rerun: completed, started an hour ago.
 */
function serveGithubRun(mock: MockUpstream, conclusion: 'success' | 'failure', doneAt = 3, oldAttemptPolls = 0): void {
  mock.on('POST', `${RUN}/rerun-failed-jobs`, { status: 201, body: {} });
  mock.on('POST', '/repos/octo-org/octo-repo/actions/workflows/deploy.yml/dispatches', {
    body: { workflow_run_id: 30433642, run_url: `https://api.github.com${RUN}`, html_url: 'https://github.com/octo-org/octo-repo/actions/runs/30433642' },
  });
  let polls = 0;
  mock.on('GET', RUN, () => {
    polls++;
    const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    if (polls <= oldAttemptPolls)
      return {
        body: { id: 30433642, status: 'completed', conclusion: 'failure', head_sha: sha, run_started_at: new Date(Date.now() - 3_600_000).toISOString() },
      };
    const done = polls >= doneAt;
    return {
      body: {
        id: 30433642,
        status: done ? 'completed' : 'in_progress',
        conclusion: done ? conclusion : null,
        head_sha: sha,
        run_started_at: new Date().toISOString(),
      },
    };
  });
  mock.on('GET', `${RUN}/jobs`, () => {
    const done = polls >= doneAt;
    const job = (id: number, name: string, finished: boolean, result: string, steps: Array<[string, string]> = []) => ({
      id,
      name,
      status: finished ? 'completed' : 'in_progress',
      conclusion: finished ? result : null,
      html_url: `https://github.com/octo-org/octo-repo/actions/runs/30433642/job/${id}`,
      steps: steps.map(([n, c]) => ({ name: n, status: 'completed', conclusion: c })),
    });
    return {
      body: {
        total_count: 2,
        jobs: [
          job(1, 'build', polls >= 2, 'success'),
          job(2, 'test', done, conclusion, [
            ['Install', 'success'],
            ['Run tests', conclusion],
          ]),
        ],
      },
    };
  });
}

/**
 * GitHub: what the failure report reads of the run's failed job 2 (test): the commit's checks, the job, its log
 * (the jest failure of the ci fixtures, served here as GitHub's blob host would).
 */
function serveGithubJobLog(mock: MockUpstream): void {
  mock.on(
    'GET',
    '/repos/octo-org/octo-repo/commits/:ref/check-runs',
    checkRunsReply([
      checkRun({ id: 1, name: 'build', app: 'github-actions', conclusion: 'success' }),
      checkRun({ id: 2, name: 'test', app: 'github-actions', conclusion: 'failure' }),
    ]),
  );
  mock.on('GET', '/repos/octo-org/octo-repo/commits/:ref/status', combinedStatusReply([]));
  mock.on('GET', '/repos/octo-org/octo-repo/actions/jobs/2', { body: failedJob(2, 'test') });
  mock.on('GET', '/repos/octo-org/octo-repo/actions/jobs/2/logs', { headers: { 'content-type': 'text/plain' }, body: failedJobLog() });
}

/** Bitbucket: what the failure report reads of the failed Test step: its log, its test report and the failed test's reason. */
function serveBitbucketStepLog(mock: MockUpstream): void {
  mock.on('GET', `${BB_PIPELINE}/steps/:step/log`, { headers: { 'content-type': 'application/octet-stream' }, body: bitbucketStepLog() });
  mock.on('GET', `${BB_PIPELINE}/steps/:step/test_reports/test_cases`, testCasesReply());
  mock.on('GET', `${BB_PIPELINE}/steps/:step/test_reports/test_cases/:case/test_case_reasons`, testCaseReasonsReply());
}

/** The jest failure's lines in the GitHub log, and the mocha failure's in CircleCI's step output and Bitbucket's step log. */
const ERROR_LINES = { github: 'Expected: 90.72', circleci: 'AssertionError: expected 2 to equal 1', bitbucket: 'AssertionError: expected 502 to equal 200' };
const ARTIFACT = /The whole log \(\d+ bytes, text\/plain\) is artifact [0-9a-f]{32}: read it with artifact_read/;

/** The CircleCI job the report reads (the ci fixtures' job 1262, its output on the storage host). */
const CIRCLECI_FAILED = { slug: 'gh/CircleCI-Public/api-preview-docs', number: 1262 };

/** A CircleCI pipeline whose one workflow finishes on the second poll, its test job with `status`. */
function serveCircleciPipeline(mock: MockUpstream, status: 'success' | 'failed', job = { slug: SLUG, number: 412 }): void {
  mock.on('POST', `/api/v2/project/${SLUG}/pipeline`, {
    status: 201,
    body: { id: PIPELINE_ID, state: 'pending', number: 26, created_at: '2026-10-07T16:31:02.770Z' },
  });
  let polls = 0;
  mock.on('GET', `/api/v2/pipeline/${PIPELINE_ID}/workflow`, () => {
    polls++;
    return { body: { items: [{ id: WORKFLOW_ID, name: 'build-and-test', status: polls >= 2 ? status : 'running' }], next_page_token: null } };
  });
  mock.on('GET', `/api/v2/workflow/${WORKFLOW_ID}/job`, () => ({
    body: {
      items: [
        { name: 'test', status: polls >= 2 ? status : 'running', job_number: job.number, project_slug: job.slug, id: 'c0ffee00-0000-4000-8000-000000000001' },
      ],
      next_page_token: null,
    },
  }));
}

/** A Bitbucket pipeline that completes on the second poll with `result`; its test step too. */
function serveBitbucketPipeline(mock: MockUpstream, result: 'SUCCESSFUL' | 'FAILED'): void {
  mock.on('POST', `${BB}`, {
    status: 201,
    body: { uuid: BB_UUID, build_number: 1289, state: { name: 'PENDING' }, target: { ref_name: 'main' }, repository: { full_name: 'acme/checkout-service' } },
  });
  let polls = 0;
  const state = (): Record<string, unknown> => (polls >= 2 ? { name: 'COMPLETED', result: { name: result } } : { name: 'IN_PROGRESS' });
  mock.on('GET', BB_PIPELINE, () => {
    polls++;
    return { body: { uuid: BB_UUID, build_number: 1289, state: state() } };
  });
  mock.on('GET', `${BB_PIPELINE}/steps`, () => ({ body: { values: [{ uuid: '{a3b4c5d6-e7f8-4a9b-8c0d-1e2f3a4b5c6d}', name: 'Test', state: state() }] } }));
}

const dataOf = (result: unknown): Record<string, unknown> => ((result as CallToolResult).structuredContent as { data: Record<string, unknown> }).data;
const polls = (mock: MockUpstream, path: string): number => mock.requests.filter((r) => r.method === 'GET' && r.path === path).length;

describe('wait: true on the tools that start a run (dist/cli.js over stdio)', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  /** Where CircleCI's signed step output URLs lead. */
  let storage: MockUpstream;
  const env = (): Record<string, string> => ({
    GITHUB_API_URL: mock.url,
    GITHUB_TOKEN: 'ghp_runWaitToken0123456789abcdef0123',
    CIRCLECI_BASE_URL: mock.url,
    CIRCLECI_TOKEN: 'CCIPAT_runWait_0123456789abcdef',
    BITBUCKET_BASE_URL: mock.url,
    BITBUCKET_ACCESS_TOKEN: 'bb_runWait_access_token_0123456789',
    MCP_STRUCTURED_OUTPUT: 'true',
    MCP_FENCE: 'false',
    CI_WAIT_POLL_MS: '150',
    MCP_TASK_POLL_INTERVAL_MS: '100',
    MCP_EGRESS_ALLOW: new URL(storage.url).host,
  });

  before(async () => {
    mock = await MockUpstream.start();
    storage = await MockUpstream.start();
  });
  after(async () => {
    await mock?.close();
    await storage?.close();
  });
  beforeEach(() => {
    mock.reset();
    storage.reset();
  });

  describe('a client without tasks (@modelcontextprotocol/sdk 1.x): a bounded synchronous wait', () => {
    let session: Connected;
    before(async () => {
      session = await connectStdioAs('sdk1', { env: env() });
    });
    after(async () => {
      await session?.close();
    });
    const call = (name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; total?: number; message?: string }) => void) =>
      (session.client as unknown as Sdk1Client).callTool({ name, arguments: args }, undefined, onprogress && { onprogress });

    it('github_rerun_workflow: reruns, reports jobs finishing, and answers the final status', async () => {
      serveGithubRun(mock, 'success');
      const seen: Array<{ progress: number; message?: string }> = [];
      const result = await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 }, (p) => seen.push(p));
      expect(mock.requests[0]).to.deep.include({ method: 'POST', path: `${RUN}/rerun-failed-jobs` });
      expect(dataOf(result)).to.deep.include({ run_id: 30433642, rerun: 'failed jobs', status: 'The run finished: success.', conclusion: 'success' });
      expect(dataOf(result)).to.not.have.property('failedJobs');
      const jobs = seen.filter((p) => p.message?.includes('jobs finished')).map((p) => p.message);
      expect(jobs).to.deep.equal(['0 of 2 jobs finished; waiting for build, test', '1 of 2 jobs finished; waiting for test', 'all 2 jobs finished']);
    });

    it('github_rerun_workflow: a failed run answers its failed jobs and steps, and its failure report: the error lines and the whole log', async () => {
      serveGithubRun(mock, 'failure');
      serveGithubJobLog(mock);
      const result = (await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 })) as CallToolResult;
      const data = dataOf(result);
      expect(data).to.deep.include({ status: 'The run finished: failure.', conclusion: 'failure' });
      expect(data.failedJobs).to.deep.equal([
        {
          name: 'test',
          conclusion: 'failure',
          failedSteps: ['Run tests'],
          html_url: 'https://github.com/octo-org/octo-repo/actions/runs/30433642/job/2',
          logs: { tool: 'github_get_job_logs', arguments: { owner: 'octo-org', repo: 'octo-repo', jobId: 2 } },
        },
      ]);
      const report = String(data.failureReport);
      expect(report).to.match(/^1 failed check on octo-org\/octo-repo run 30433642 at a1b2c3d4e5f6 \(1 failed job of it read on GitHub\)\./);
      expect(report).to.contain('## GitHub Actions: test (failure)');
      expect(report).to.contain('Failed step: Run npm test -- --ci');
      expect(report).to.contain('● cart total › applies the member discount before tax');
      expect(report).to.contain(ERROR_LINES.github);
      expect(report).to.match(ARTIFACT);
      // Only the run's failed job is read: not the build job that passed.
      expect(mock.requests.map((r) => r.path)).to.not.include('/repos/octo-org/octo-repo/actions/jobs/1/logs');
      // It quotes a build log: labelled untrusted (fenced unless MCP_FENCE=false, as here).
      const labels = (result._meta?.['mcp-devtools/provenance'] as { labels: Array<{ integrity: string }> }).labels;
      expect(labels.map((l) => l.integrity)).to.deep.equal(['untrusted']);
    });

    it('github_rerun_workflow: a run still going when the time is up answers "still running" with how to follow it', async () => {
      serveGithubRun(mock, 'success', 1_000);
      const data = dataOf(await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 1 }));
      expect(data.status).to.equal('Still running after 1 s: follow it with github_list_workflow_jobs, or ci_wait on its commit.');
      expect(data.conclusion).to.equal(null);
      // The interval doubles while nothing changes: a second at 150 ms would be seven polls without it.
      expect(polls(mock, RUN)).to.be.within(2, 5);
    });

    it('github_rerun_workflow: an answer that is not a run ends the wait at once with a clear error, not polling until the time is up', async () => {
      mock.on('POST', `${RUN}/rerun-failed-jobs`, { status: 201, body: {} });
      mock.on('GET', RUN, { body: { message: 'a body with no run in it' } });
      mock.on('GET', `${RUN}/jobs`, { body: { total_count: 0, jobs: [] } });
      const started = Date.now();
      const result = (await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 })) as CallToolResult;
      expect(result.isError).to.equal(true);
      expect(JSON.stringify(result.content))
        .to.match(/upstream_invalid_body/)
        .and.match(/no status/);
      expect(polls(mock, RUN)).to.equal(1);
      expect(Date.now() - started).to.be.below(10_000);
    });

    it('bb_run_pipeline: an answer that is not a pipeline ends the wait at once with a clear error', async () => {
      mock.on('POST', `${BB}`, { status: 201, body: { uuid: BB_UUID, build_number: 1289, state: { name: 'PENDING' } } });
      mock.on('GET', BB_PIPELINE, { body: { type: 'error-free but not a pipeline' } });
      mock.on('GET', `${BB_PIPELINE}/steps`, { body: { values: [] } });
      const result = (await call('bb_run_pipeline', { ...BB_ARGS, wait: true, timeoutSeconds: 30 })) as CallToolResult;
      expect(result.isError).to.equal(true);
      expect(JSON.stringify(result.content))
        .to.match(/upstream_invalid_body/)
        .and.match(/no state/);
      expect(polls(mock, BB_PIPELINE)).to.equal(1);
    });

    it('github_rerun_workflow: the attempt before the rerun, still shown at first, is not taken for its end', async () => {
      serveGithubRun(mock, 'success', 4, 2);
      const data = dataOf(await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ status: 'The run finished: success.', conclusion: 'success' });
      expect(polls(mock, RUN)).to.equal(4);
    });

    it('github_dispatch_workflow: waits for the run GitHub named (return_run_details)', async () => {
      serveGithubRun(mock, 'failure');
      serveGithubJobLog(mock);
      const data = dataOf(
        await call('github_dispatch_workflow', { owner: 'octo-org', repo: 'octo-repo', workflowId: 'deploy.yml', ref: 'main', wait: true, timeoutSeconds: 30 }),
      );
      expect(data).to.deep.include({ run_id: 30433642, status: 'The run finished: failure.' });
      expect((data.failedJobs as Array<{ name: string }>).map((j) => j.name)).to.deep.equal(['test']);
      expect(data.failureReport).to.contain(ERROR_LINES.github).and.match(ARTIFACT);
    });

    it('circleci_rerun_workflow: waits for the new workflow', async () => {
      serveCircleciPipeline(mock, 'success');
      mock.on('POST', '/api/v2/workflow/0ba0ba00-0000-4000-8000-000000000000/rerun', { status: 202, body: { workflow_id: WORKFLOW_ID } });
      let polls = 0;
      mock.on('GET', `/api/v2/workflow/${WORKFLOW_ID}`, () => ({
        body: { id: WORKFLOW_ID, name: 'build-and-test', status: ++polls >= 2 ? 'success' : 'running' },
      }));
      const data = dataOf(await call('circleci_rerun_workflow', { workflowId: '0ba0ba00-0000-4000-8000-000000000000', wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ workflowId: WORKFLOW_ID, status: 'Finished: all 1 workflow succeeded.' });
    });

    it('circleci_rerun_workflow: a failed workflow answers its failed job and its failure report (the step output, the flaky test)', async () => {
      serveCircleciPipeline(mock, 'failed', CIRCLECI_FAILED);
      serveCircleciFailure(mock, storage, FLAKY_SNAKE);
      mock.on('POST', '/api/v2/workflow/0ba0ba00-0000-4000-8000-000000000000/rerun', { status: 202, body: { workflow_id: WORKFLOW_ID } });
      let polls = 0;
      mock.on('GET', `/api/v2/workflow/${WORKFLOW_ID}`, () => ({
        body: { id: WORKFLOW_ID, name: 'build-and-test', status: ++polls >= 2 ? 'failed' : 'running' },
      }));
      mock.on('GET', `/api/v2/workflow/${WORKFLOW_ID}/job`, () => ({
        body: {
          items: [{ name: 'test', status: polls >= 2 ? 'failed' : 'running', job_number: 1262, project_slug: CIRCLECI_FAILED.slug }],
          next_page_token: null,
        },
      }));
      const data = dataOf(await call('circleci_rerun_workflow', { workflowId: '0ba0ba00-0000-4000-8000-000000000000', wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ workflowId: WORKFLOW_ID, status: 'Finished: build-and-test failed.' });
      const report = String(data.failureReport);
      expect(report).to.contain('Failed step: Run tests');
      expect(report).to.contain(ERROR_LINES.circleci);
      expect(report).to.contain('[known flaky: flaked 4 times (CircleCI Insights)]');
      expect(report).to.match(ARTIFACT);
      // The signed output URL is read without the CircleCI token.
      expect(storage.requests.map((r) => r.headers['circle-token'])).to.deep.equal([undefined]);
    });

    it('github_rerun_workflow without wait answers at once, as before, and reads nothing', async () => {
      serveGithubRun(mock, 'success');
      const result = await call('github_rerun_workflow', GH_ARGS);
      expect(dataOf(result)).to.deep.equal({ run_id: 30433642, rerun: 'failed jobs', html_url: `${mock.url}/octo-org/octo-repo/actions/runs/30433642` });
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`POST ${RUN}/rerun-failed-jobs`]);
    });

    it('circleci_trigger_pipeline: triggers, waits for its workflows, and answers the failed jobs with their logs call and failure report', async () => {
      serveCircleciPipeline(mock, 'failed', CIRCLECI_FAILED);
      serveCircleciFailure(mock, storage, FLAKY_SNAKE);
      const data = dataOf(await call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main', wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ id: PIPELINE_ID, number: 26, status: 'Finished: build-and-test failed.' });
      expect(data.workflows).to.deep.equal([{ id: WORKFLOW_ID, name: 'build-and-test', status: 'failed' }]);
      expect(data.failedJobs).to.deep.equal([
        {
          workflow: 'build-and-test',
          name: 'test',
          status: 'failed',
          jobNumber: 1262,
          logs: { tool: 'circleci_logs', arguments: { projectSlug: CIRCLECI_FAILED.slug, jobNumber: 1262 } },
        },
      ]);
      const report = String(data.failureReport);
      expect(report).to.match(/^1 failed check on gh\/CircleCI-Public\/api-preview-docs, the workflows waited on \(1 failed job of it read on CircleCI\)\./);
      expect(report).to.contain(ERROR_LINES.circleci);
      expect(report).to.match(ARTIFACT);
    });

    it('circleci_trigger_pipeline: a pipeline that passes, and one still running at the deadline', async () => {
      serveCircleciPipeline(mock, 'success');
      expect(dataOf(await call('circleci_trigger_pipeline', { projectSlug: SLUG, wait: true, timeoutSeconds: 30 })).status).to.equal(
        'Finished: all 1 workflow succeeded.',
      );
      mock.reset();
      mock.on('POST', `/api/v2/project/${SLUG}/pipeline`, { status: 201, body: { id: PIPELINE_ID, state: 'pending', number: 27 } });
      mock.on('GET', `/api/v2/pipeline/${PIPELINE_ID}/workflow`, { body: { items: [{ id: WORKFLOW_ID, name: 'build-and-test', status: 'running' }] } });
      mock.on('GET', `/api/v2/workflow/${WORKFLOW_ID}/job`, { body: { items: [{ name: 'test', status: 'running' }] } });
      expect(dataOf(await call('circleci_trigger_pipeline', { projectSlug: SLUG, wait: true, timeoutSeconds: 1 })).status).to.equal(
        'Still running after 1 s: follow it with circleci_pipeline_status.',
      );
    });

    it('bb_run_pipeline: runs, waits for it to complete, and answers the failed steps with their log call and failure report', async () => {
      serveBitbucketPipeline(mock, 'FAILED');
      serveBitbucketStepLog(mock);
      const data = dataOf(await call('bb_run_pipeline', { ...BB_ARGS, wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ uuid: BB_UUID, buildNumber: 1289, status: 'The pipeline finished: FAILED.', result: 'FAILED' });
      expect(data.failedSteps).to.deep.equal([
        {
          name: 'Test',
          result: 'FAILED',
          log: {
            tool: 'bb_get_pipeline_step_log',
            arguments: { workspace: 'acme', repoSlug: 'checkout-service', pipelineUuid: BB_UUID, stepUuid: '{a3b4c5d6-e7f8-4a9b-8c0d-1e2f3a4b5c6d}' },
          },
        },
      ]);
      const report = String(data.failureReport);
      expect(report).to.match(/^1 failed check on acme\/checkout-service pipeline #1289 \(1 failed job of it read on Bitbucket\)\./);
      expect(report).to.contain('Failed step: Test');
      expect(report).to.contain(`- checkout › accepts 51 items (was a 502 behind the gateway): ${ERROR_LINES.bitbucket}`);
      expect(report).to.contain('1) checkout');
      expect(report).to.match(ARTIFACT);
    });

    it('bb_run_pipeline: a pipeline that passes; still running at the deadline; without wait as before', async () => {
      serveBitbucketPipeline(mock, 'SUCCESSFUL');
      expect(dataOf(await call('bb_run_pipeline', { ...BB_ARGS, wait: true, timeoutSeconds: 30 }))).to.deep.include({
        status: 'The pipeline finished: SUCCESSFUL.',
        result: 'SUCCESSFUL',
      });
      mock.reset();
      serveBitbucketPipeline(mock, 'SUCCESSFUL');
      mock.on('GET', BB_PIPELINE, { body: { uuid: BB_UUID, state: { name: 'IN_PROGRESS' } } } satisfies Reply);
      expect(dataOf(await call('bb_run_pipeline', { ...BB_ARGS, wait: true, timeoutSeconds: 1 })).status).to.equal(
        'Still running after 1 s: follow it with bb_list_pipelines.',
      );
      mock.reset();
      serveBitbucketPipeline(mock, 'SUCCESSFUL');
      const data = dataOf(await call('bb_run_pipeline', BB_ARGS));
      expect(data).to.not.have.property('status');
      expect(mock.requests.map((r) => r.method)).to.deep.equal(['POST']);
    });
  });

  describe('a 2026-07-28 client that declares the tasks extension', () => {
    it('gets a task for a write with wait: true, settling to the same answer; a write without wait answers at once', async () => {
      const stdio = await connectStdio({ env: env() });
      const session = taskSession(stdio.client, stdioDispatch(stdio.client));
      try {
        serveGithubRun(mock, 'failure');
        const execution = await session.callTool('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 });
        expect(execution.kind).to.equal('task');
        const { outcome } = await execution.settle();
        expect(outcome.status).to.equal('completed');
        const data = dataOf(resultFromTaskOutcome(outcome));
        expect(data).to.deep.include({ status: 'The run finished: failure.' });
        expect((data.failedJobs as unknown[]).length).to.equal(1);
        // The commit's checks are not served here: the report says so, the write's answer stands.
        expect(data.failureReport).to.match(/^The failure report could not be read: /);

        mock.reset();
        serveBitbucketPipeline(mock, 'SUCCESSFUL');
        const task = await session.callTool('bb_run_pipeline', { ...BB_ARGS, wait: true, timeoutSeconds: 30 });
        expect(task.kind).to.equal('task');
        expect(dataOf(resultFromTaskOutcome((await task.settle()).outcome)).status).to.equal('The pipeline finished: SUCCESSFUL.');

        mock.reset();
        serveCircleciPipeline(mock, 'success');
        const circle = await session.callTool('circleci_trigger_pipeline', { projectSlug: SLUG, wait: true, timeoutSeconds: 30 });
        expect(circle.kind).to.equal('task');
        expect(dataOf(resultFromTaskOutcome((await circle.settle()).outcome)).status).to.equal('Finished: all 1 workflow succeeded.');

        mock.reset();
        serveGithubRun(mock, 'success');
        const at = await session.callTool('github_rerun_workflow', GH_ARGS);
        expect(at.kind).to.equal('immediate');
        expect(mock.requests.map((r) => r.method)).to.deep.equal(['POST']);
      } finally {
        await session.close();
        await stdio.close();
      }
    });
  });

  describe('a server that fences untrusted text (MCP_FENCE, the default)', () => {
    let session: Connected;
    before(async () => {
      session = await connectStdioAs('sdk1', { env: { ...env(), MCP_FENCE: 'true' } });
    });
    after(async () => {
      await session?.close();
    });

    it('fences the failure report, which quotes a build log, and says so beside data', async () => {
      serveBitbucketPipeline(mock, 'FAILED');
      serveBitbucketStepLog(mock);
      const result = (await (session.client as unknown as Sdk1Client).callTool({
        name: 'bb_run_pipeline',
        arguments: { ...BB_ARGS, wait: true, timeoutSeconds: 30 },
      })) as CallToolResult;
      const structured = result.structuredContent as { data: Record<string, unknown>; provenance?: { fence: string | null; untrusted: number } };
      const fence = structured.provenance?.fence;
      expect(fence).to.match(/^<[^>]+>…<\/[^>]+>$/);
      const [open, close] = fence!.split('…') as [string, string];
      const report = String(structured.data.failureReport);
      expect(report.startsWith(open) && report.endsWith(close), report.slice(0, 80)).to.equal(true);
      expect(report).to.contain(ERROR_LINES.bitbucket);
      // The rest of the answer (states, names, the calls to make) is the server's own: not fenced.
      expect(structured.data.status).to.equal('The pipeline finished: FAILED.');
    });
  });

  describe('a server without the ci plugin (a config file that lists the vendors alone)', () => {
    let session: Connected;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'run-wait-no-ci-'));
      writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['github', 'circleci', 'bitbucket'] }));
      session = await connectStdioAs('sdk1', { env: env(), cwd: dir });
    });
    after(async () => {
      await session?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const call = (name: string, args: Record<string, unknown>) => (session.client as unknown as Sdk1Client).callTool({ name, arguments: args });

    it('answers the failed jobs with the calls that read their logs, and says why there is no failure report', async () => {
      serveGithubRun(mock, 'failure');
      serveGithubJobLog(mock);
      const data = dataOf(await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ status: 'The run finished: failure.', conclusion: 'failure' });
      expect((data.failedJobs as Array<{ logs: unknown }>)[0]!.logs).to.deep.equal({
        tool: 'github_get_job_logs',
        arguments: { owner: 'octo-org', repo: 'octo-repo', jobId: 2 },
      });
      expect(data.failureReport).to.match(/^No failure report: the ci plugin is not loaded here/);
      expect(mock.requests.map((r) => r.path)).to.not.include('/repos/octo-org/octo-repo/actions/jobs/2/logs');

      mock.reset();
      serveBitbucketPipeline(mock, 'FAILED');
      const bb = dataOf(await call('bb_run_pipeline', { ...BB_ARGS, wait: true, timeoutSeconds: 30 }));
      expect((bb.failedSteps as Array<{ log: { tool: string } }>)[0]!.log.tool).to.equal('bb_get_pipeline_step_log');
      expect(bb.failureReport).to.match(/^No failure report: the ci plugin is not loaded here/);
    });
  });
});
