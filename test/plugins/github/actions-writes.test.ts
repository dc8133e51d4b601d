import { expect } from 'chai';
import { checkRuns, checkRunsReply, githubError } from '../../fixtures/github/github-write-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_actionsWritesTestToken0123456789';
const REPO = { owner: 'octo-org', repo: 'octo-repo' };
const RUN = '/repos/octo-org/octo-repo/actions/runs/30433642';
const env = (structured: boolean) => (url: string) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: String(structured) });

describe('GitHub Actions writes and check runs (in-process, GitHub-shaped mock)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: env(true) });
  const plain = useVendorKernel({ plugins: ['github'], env: env(false) });

  describe('github_rerun_workflow', () => {
    it('reruns the failed jobs by default (201 with an empty object) and answers with the run and its address', async () => {
      t.mock.on('POST', `${RUN}/rerun-failed-jobs`, { status: 201, body: {} });
      const result = await t.kernel.call('github_rerun_workflow', { ...REPO, runId: 30433642 });
      expect(t.mock.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)).to.deep.equal([`POST ${RUN}/rerun-failed-jobs ""`]);
      expect(result.structuredContent).to.deep.equal({
        data: { run_id: 30433642, rerun: 'failed jobs', html_url: `${t.mock.url}/octo-org/octo-repo/actions/runs/30433642` },
      });
    });

    it('reruns every job with failedOnly false, rendered as TOON with structured output off', async () => {
      plain.mock.on('POST', `${RUN}/rerun`, { status: 201, body: {} });
      const result = await plain.kernel.call('github_rerun_workflow', { ...REPO, runId: 30433642, failedOnly: false });
      expect(plain.mock.requests[0]!.path).to.equal(`${RUN}/rerun`);
      expect(textOf(result)).to.equal(`run_id: 30433642\nrerun: all jobs\nhtml_url: "${plain.mock.url}/octo-org/octo-repo/actions/runs/30433642"`);
      expect(result.structuredContent).to.equal(undefined);
    });

    it("reports GitHub's 403 for a run that is still going", async () => {
      t.mock.on('POST', `${RUN}/rerun-failed-jobs`, githubError(403, 'This workflow is already running'));
      const result = await t.kernel.call('github_rerun_workflow', { ...REPO, runId: 30433642 });
      expect(textOf(result)).to.contain('HTTP Status: 403').and.contain('This workflow is already running');
    });
  });

  describe('github_cancel_workflow_run', () => {
    it('POSTs the cancel (202) and answers that the cancel was requested', async () => {
      t.mock.on('POST', `${RUN}/cancel`, { status: 202, body: {} });
      const result = await t.kernel.call('github_cancel_workflow_run', { ...REPO, runId: 30433642 });
      expect(t.mock.requests[0]!.method).to.equal('POST');
      expect(result.structuredContent).to.deep.equal({
        data: { run_id: 30433642, state: 'cancel requested', html_url: `${t.mock.url}/octo-org/octo-repo/actions/runs/30433642` },
      });
    });

    it('turns 409 (the run already finished) into an error that says there is nothing to stop', async () => {
      t.mock.on('POST', `${RUN}/cancel`, githubError(409, 'Cannot cancel a workflow run that is completed.'));
      const result = await t.kernel.call('github_cancel_workflow_run', { ...REPO, runId: 30433642 });
      expect(textOf(result)).to.match(
        /^Error: Workflow run 30433642 of octo-org\/octo-repo was not cancelled: it has already completed, so there is nothing to stop\. .* GitHub said: "Cannot cancel a workflow run that is completed\."/,
      );
      expect(textOf(result)).to.contain('HTTP Status: 409');
    });

    it('reports a run that does not exist (404)', async () => {
      const result = await t.kernel.call('github_cancel_workflow_run', { ...REPO, runId: 1 });
      expect(textOf(result)).to.contain('HTTP Status: 404').and.contain('POST /repos/octo-org/octo-repo/actions/runs/1/cancel');
    });
  });

  describe('github_dispatch_workflow', () => {
    it('POSTs ref and inputs to the workflow file (204) and answers with what it started and where its runs appear', async () => {
      t.mock.on('POST', '/repos/octo-org/octo-repo/actions/workflows/deploy.yml/dispatches', { status: 204 });
      const inputs = { environment: 'staging', dryRun: true, replicas: 3 };
      const result = await t.kernel.call('github_dispatch_workflow', { ...REPO, workflowId: 'deploy.yml', ref: 'main', inputs });
      expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ ref: 'main', inputs, return_run_details: true });
      expect(result.structuredContent).to.deep.equal({
        data: {
          workflow: 'deploy.yml',
          ref: 'main',
          inputs,
          runs_url: `${t.mock.url}/octo-org/octo-repo/actions/workflows/deploy.yml`,
          runs: {
            tool: 'github_list_workflow_runs',
            arguments: { owner: 'octo-org', repo: 'octo-repo', workflowId: 'deploy.yml', event: 'workflow_dispatch', branch: 'main' },
          },
        },
      });
    });

    it('takes a numeric workflow id, with no inputs', async () => {
      plain.mock.on('POST', '/repos/octo-org/octo-repo/actions/workflows/161335/dispatches', { status: 204 });
      const result = await plain.kernel.call('github_dispatch_workflow', { ...REPO, workflowId: 161335, ref: 'v2.1.0' });
      expect(JSON.parse(plain.mock.requests[0]!.body)).to.deep.equal({ ref: 'v2.1.0', return_run_details: true });
      expect(textOf(result)).to.equal(
        [
          'workflow: 161335',
          'ref: v2.1.0',
          'inputs:',
          `runs_url: "${plain.mock.url}/octo-org/octo-repo/actions"`,
          'runs:',
          '  tool: github_list_workflow_runs',
          '  arguments:',
          '    owner: octo-org',
          '    repo: octo-repo',
          '    workflowId: 161335',
          '    event: workflow_dispatch',
          '    branch: v2.1.0',
        ].join('\n'),
      );
    });

    it("reports GitHub's 422 for a workflow without a workflow_dispatch trigger", async () => {
      t.mock.on(
        'POST',
        '/repos/octo-org/octo-repo/actions/workflows/ci.yml/dispatches',
        githubError(422, "Workflow does not have 'workflow_dispatch' trigger"),
      );
      const result = await t.kernel.call('github_dispatch_workflow', { ...REPO, workflowId: 'ci.yml', ref: 'main' });
      expect(textOf(result)).to.contain('HTTP Status: 422').and.contain("Workflow does not have 'workflow_dispatch' trigger");
    });

    it('refuses more than 25 inputs, or a workflow name that is not a file name, before any request', async () => {
      const inputs = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`input${i}`, 'x']));
      for (const args of [
        { ...REPO, workflowId: 'deploy.yml', ref: 'main', inputs },
        { ...REPO, workflowId: '../deploy.yml', ref: 'main' },
      ]) {
        expect(textOf(await t.kernel.call('github_dispatch_workflow', args))).to.contain('Code: invalid_arguments');
      }
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('github_list_check_runs', () => {
    const runs = checkRuns([
      { name: 'build', status: 'completed', conclusion: 'success' },
      { name: 'test (20)', status: 'completed', conclusion: 'failure' },
      { name: 'test (22)', status: 'in_progress' },
      { name: 'ci/circleci: deploy', status: 'queued', app: 'circleci-checks' },
    ]);

    it('answers with a compact summary of each check and counts by outcome, paged', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/commits/:ref/check-runs', (req) => checkRunsReply(req, runs));
      const result = await t.kernel.call('github_list_check_runs', { ...REPO, ref: 'feature/retry-deploy', perPage: 3 });
      expect(t.mock.requests[0]!.path).to.equal('/repos/octo-org/octo-repo/commits/feature%2Fretry-deploy/check-runs');
      expect(Object.fromEntries(t.mock.requests[0]!.query)).to.deep.equal({ per_page: '3', page: '1' });
      const data = (result.structuredContent as { data: { total_count: number; counts: unknown; check_runs: unknown[] }; nextPage: number }).data;
      expect((result.structuredContent as { nextPage: number }).nextPage).to.equal(2);
      expect(data.total_count).to.equal(4);
      expect(data.counts).to.deep.equal({ success: 1, failure: 1, in_progress: 1 });
      expect(data.check_runs[1]).to.deep.equal({
        id: 29679450,
        name: 'test (20)',
        app: 'github-actions',
        status: 'completed',
        conclusion: 'failure',
        url: 'https://github.com/octo-org/octo-repo/runs/29679450',
        details_url: 'https://github.com/octo-org/octo-repo/actions/runs/30433642/job/29679450',
      });
    });

    it('projects with jq and renders TOON with structured output off, up to the last page', async () => {
      plain.mock.on('GET', '/repos/octo-org/octo-repo/commits/:ref/check-runs', (req) => checkRunsReply(req, runs));
      const result = await plain.kernel.call('github_list_check_runs', {
        ...REPO,
        ref: 'ce587453ced02b1526dfb4cb910479d431683101',
        perPage: 3,
        page: 2,
        jq: 'check_runs[*].{name: name, app: app, status: status}',
      });
      expect(textOf(result)).to.equal('nextPage: null\ndata[1]{name,app,status}:\n  "ci/circleci: deploy",circleci-checks,queued');
    });

    it('reports a ref GitHub does not know (422 "No commit found") and refuses a ref that climbs out of the path', async () => {
      t.mock.on('GET', '/repos/octo-org/octo-repo/commits/:ref/check-runs', githubError(422, 'No commit found for SHA: nope'));
      expect(textOf(await t.kernel.call('github_list_check_runs', { ...REPO, ref: 'nope' })))
        .to.contain('HTTP Status: 422')
        .and.contain('No commit found');
      const climbing = await t.kernel.call('github_list_check_runs', { ...REPO, ref: '..' });
      expect(textOf(climbing)).to.contain('Code: invalid_path');
      // A lone surrogate cannot be percent-encoded: a clear refusal, not a crash of the plugin.
      const unsendable = await t.kernel.call('github_list_check_runs', { ...REPO, ref: 'main\udfff' });
      expect(textOf(unsendable)).to.match(/^Error: The ref "main\\udfff" holds a character that cannot be sent in a path/);
      expect(textOf(unsendable)).to.contain('Code: invalid_path');
      expect(t.mock.requests).to.have.length(1);
    });
  });
});
