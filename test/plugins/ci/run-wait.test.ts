import type { CallToolResult } from '@modelcontextprotocol/client';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { connectStdio, connectStdioAs, type Connected } from '../../support/sdk-client.js';
import { stdioDispatch, taskSession } from '../../support/task-session.js';

// `wait: true` on the tools that start a run (GitHub rerun, CircleCI trigger, Bitbucket run), over stdio from the
// built server against vendor-shaped mocks: the write, then a bounded wait with progress, answering the final
// status and, on failure, what failed; a task for a client that declares the tasks extension; without `wait` the
// write answers at once, as before.

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

/** A CircleCI pipeline whose one workflow finishes on the second poll, its test job with `status`. */
function serveCircleciPipeline(mock: MockUpstream, status: 'success' | 'failed'): void {
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
      items: [{ name: 'test', status: polls >= 2 ? status : 'running', job_number: 412, project_slug: SLUG, id: 'c0ffee00-0000-4000-8000-000000000001' }],
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
  });

  before(async () => {
    mock = await MockUpstream.start();
  });
  after(async () => {
    await mock?.close();
  });
  beforeEach(() => mock.reset());

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

    it('github_rerun_workflow: a failed run answers its failed jobs and steps, and where the error lines are', async () => {
      serveGithubRun(mock, 'failure');
      const data = dataOf(await call('github_rerun_workflow', { ...GH_ARGS, wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ status: 'The run finished: failure.', conclusion: 'failure' });
      expect(data.failedJobs).to.deep.equal([
        { name: 'test', conclusion: 'failure', failedSteps: ['Run tests'], html_url: 'https://github.com/octo-org/octo-repo/actions/runs/30433642/job/2' },
      ]);
      expect(data.report).to.deep.equal({
        tool: 'ci_failure_report',
        arguments: { repo: 'octo-org/octo-repo', ref: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' },
      });
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
      const data = dataOf(
        await call('github_dispatch_workflow', { owner: 'octo-org', repo: 'octo-repo', workflowId: 'deploy.yml', ref: 'main', wait: true, timeoutSeconds: 30 }),
      );
      expect(data).to.deep.include({ run_id: 30433642, status: 'The run finished: failure.' });
      expect((data.failedJobs as Array<{ name: string }>).map((j) => j.name)).to.deep.equal(['test']);
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

    it('github_rerun_workflow without wait answers at once, as before, and reads nothing', async () => {
      serveGithubRun(mock, 'success');
      const result = await call('github_rerun_workflow', GH_ARGS);
      expect(dataOf(result)).to.deep.equal({ run_id: 30433642, rerun: 'failed jobs', html_url: `${mock.url}/octo-org/octo-repo/actions/runs/30433642` });
      expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`POST ${RUN}/rerun-failed-jobs`]);
    });

    it('circleci_trigger_pipeline: triggers, waits for its workflows, and answers the failed jobs with their logs call', async () => {
      serveCircleciPipeline(mock, 'failed');
      const data = dataOf(await call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main', wait: true, timeoutSeconds: 30 }));
      expect(data).to.deep.include({ id: PIPELINE_ID, number: 26, status: 'Finished: build-and-test failed.' });
      expect(data.workflows).to.deep.equal([{ id: WORKFLOW_ID, name: 'build-and-test', status: 'failed' }]);
      expect(data.failedJobs).to.deep.equal([
        {
          workflow: 'build-and-test',
          name: 'test',
          status: 'failed',
          jobNumber: 412,
          logs: { tool: 'circleci_logs', arguments: { projectSlug: SLUG, jobNumber: 412 } },
        },
      ]);
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

    it('bb_run_pipeline: runs, waits for it to complete, and answers the failed steps with their log call', async () => {
      serveBitbucketPipeline(mock, 'FAILED');
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
});
