import { expect } from 'chai';
import { failingJobsTask } from '../src/tasks/failing-jobs-task.js';
import { unassignedIssuesTask } from '../src/tasks/unassigned-issues-task.js';
import { actionsHistory } from '../src/vendors/github-actions.js';
import { jiraProject } from '../src/vendors/jira-project.js';
import { useHarness } from './support/harness-session.js';

// The smallest bound the server accepts: an unprojected page of runs or issues is far over it.
const BOUND = 16_384;

describe('incomplete values are read back whole from their artifact', () => {
  // No fences (random per call) around the runs' titles: the values are compared with the vendor's own.
  const session = useHarness([failingJobsTask, unassignedIssuesTask], { env: { MCP_STRUCTURED_MAX_BYTES: String(BOUND), MCP_FENCE: 'false' } });

  it('gives the program the whole page of 30 runs (~400 KB, 25 times the bound) as if it had come inline', async () => {
    const run = await session.harness.run("return await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', branch: 'main' });");
    const onMain = actionsHistory().runs.filter((r) => r.head_branch === 'main');
    expect(run.value).to.deep.equal({ data: { total_count: onMain.length, workflow_runs: onMain.slice(0, 30) }, nextPage: 2 });
    expect(Buffer.byteLength(JSON.stringify(run.value))).to.be.greaterThan(BOUND * 20);
    // One call for the page, then artifact_read until eof; GitHub itself was asked once.
    expect(run.toolCalls).to.be.greaterThan(10);
    expect(session.world.mock.requests).to.have.length(1);
  });

  it('decodes multi-byte text split across chunks (Jira issues with German, Japanese and emoji)', async () => {
    const run = await session.harness.run(
      "const page = await tools.jira_get({ path: '/rest/api/3/search/jql', queryParams: { jql: 'project = PLAT ORDER BY key ASC', fields: '*all', maxResults: '60' } });\nreturn page.data;",
    );
    const page = run.value as { issues: unknown[]; isLast: boolean; nextPageToken: string };
    expect(page.issues).to.deep.equal(jiraProject().slice(0, 60));
    expect(page.isLast).to.equal(false);
    expect(JSON.stringify(page.issues)).to.contain('日本語').and.contain('✅');
  });

  it('reads nothing back when the value fits: one call', async () => {
    const run = await session.harness.run(
      "return await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', branch: 'main', jq: 'workflow_runs[0:3].id' });",
    );
    expect(run.toolCalls).to.equal(1);
    expect((run.value as { data: number[] }).data).to.have.length(3);
  });

  it('does the same for a call from harness code, without a sandbox', async () => {
    const value = (await session.harness.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo', branch: 'main', page: 2 })) as {
      data: { workflow_runs: Array<{ id: number }> };
      nextPage: number;
    };
    const onMain = actionsHistory().runs.filter((r) => r.head_branch === 'main');
    expect(value.data.workflow_runs.map((r) => r.id)).to.deep.equal(onMain.slice(30, 60).map((r) => r.id));
    expect(value).to.not.have.property('incomplete');
    expect(value.nextPage).to.equal(3);
  });
});
