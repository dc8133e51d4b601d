import { expect } from 'chai';
import { startTestKernel, type TestKernel } from '../../support/test-kernel.js';

// Every vendor read tool the server serves either labels the people-written text it returns (its spec declares
// `provenance: { labels: true }`, so its result carries labels, or is labelled untrusted and private whole) or is
// named below as returning none. A new read tool that returns people's text without labels fails here.

const VENDORS = ['github', 'circleci', 'jira', 'confluence', 'bitbucket', 'ci'];

/** Read tools whose results carry no people-written text, each with why. */
const NO_PEOPLE_TEXT: Readonly<Record<string, string>> = {
  // Jobs and steps: ids, states, timings, and names from the workflow file of the commit the run built.
  github_list_workflow_jobs: 'jobs: ids, states, timings, step names',
  // Checks: app names, states, conclusions and the app's own summary (apps an administrator installed).
  github_list_check_runs: 'checks: app names, states, conclusions',
  // Test names and flake counts from CircleCI Insights (names from the committed test code).
  circleci_flaky_tests: 'flaky tests: names and counts',
  // Pipelines: ids, states, timings, the branch and the commit's hash.
  bb_list_pipelines: 'pipelines: ids, states, timings',
  // Waiting for CI: states and timings of checks, never their output.
  ci_wait: 'check states and timings',
};

describe('every vendor read tool labels the people-written text it returns (all vendors loaded, tools/list walked)', () => {
  let t: TestKernel;
  before(async () => {
    t = await startTestKernel({ configFile: { content: JSON.stringify({ plugins: VENDORS }) }, env: { MCP_TOOLSETS: 'all' } });
  });
  after(async () => {
    await t?.close();
  });

  it('serves no vendor read tool that is neither labelled nor named as carrying no people text', async () => {
    const client = await t.connect();
    const served = (await client.listTools()).tools;
    const specs = new Map(t.kernel.servedDefinitions().map((d) => [d.spec.name, d]));
    const reads = served.filter((tool) => tool.annotations?.readOnlyHint === true && VENDORS.includes(specs.get(tool.name)?.plugin ?? ''));
    expect(reads.length, 'vendor read tools served').to.be.above(20);
    const unlabelled = reads
      .filter((tool) => specs.get(tool.name)!.spec.provenance?.labels !== true && !(tool.name in NO_PEOPLE_TEXT))
      .map((tool) => tool.name);
    expect(unlabelled, 'vendor reads that return people text without labels').to.deep.equal([]);
    // The list stays true: every tool named is served, and none of them has since been labelled.
    const named = Object.keys(NO_PEOPLE_TEXT);
    expect(
      named.filter((name) => !reads.some((tool) => tool.name === name)),
      'named but not served as a vendor read',
    ).to.deep.equal([]);
    expect(
      named.filter((name) => specs.get(name)?.spec.provenance?.labels === true),
      'named but labelled',
    ).to.deep.equal([]);
  });
});
