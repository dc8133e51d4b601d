import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { standardCorpus } from '../../../server/testing/conformance-corpus.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { assertConforms } from '../../../server/testing/plugin-conformance.js';
import { checkStructuredConformance, type ConformanceReport } from '../../../server/testing/structured-conformance.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess, type StdioSession } from '../../support/sdk-client.js';
import {
  BITBUCKET_DOWNLOADS,
  CONFLUENCE_SPACES,
  conformanceArgsFor,
  conformanceServerFolder,
  GITHUB_CHECK_RUNS,
  GITHUB_GRAPHQL,
  JIRA_TRANSITIONS,
  representativeCorpus,
  REPRESENTATIVE_PROJECTIONS,
} from './conformance-server.js';
import { issuesWithPullRequests, pullRequests, repositories } from '../../fixtures/github/github-repo-api.js';
import { githubFixture, githubLink } from './structured-fixtures.js';

/** The shared public GitHub payloads, as GitHub serves them (with a Link header on the paginated ones). */
function githubCorpus(mockUrl: string): ReturnType<typeof standardCorpus> {
  const fixtures = ['workflow-run-paginated', 'workflow-paginated', 'job-paginated', 'artifact-paginated', 'job', 'workflow-run'].map((name, i) => ({
    name: `github fixture ${name}`,
    reply: { status: 200, headers: (i < 4 ? { link: githubLink(mockUrl, 1, 2) } : {}) as Record<string, string>, body: githubFixture(name) },
  }));
  // Pull requests, issues (pull requests among them) and repositories: bare arrays continued by Link, and single objects.
  const arrays = [
    { name: 'github pull request page', body: pullRequests(3) },
    { name: 'github issue page with pull requests', body: issuesWithPullRequests(6) },
    { name: 'github repository page', body: repositories(2) },
  ].map(({ name, body }) => ({ name, reply: { status: 200, headers: { link: githubLink(mockUrl, 1, 3) }, body } }));
  const objects = ['pull-request', 'issue', 'repository'].map((name) => ({
    name: `github fixture ${name}`,
    reply: { status: 200, body: githubFixture(name) },
  }));
  return [...fixtures, ...arrays, ...objects];
}

describe('structured output conformance (official SDK client + independent 2020-12 validator)', function () {
  this.timeout(180_000);
  let mock: MockUpstream;

  before(async () => {
    mock = await MockUpstream.start();
  });
  after(async () => {
    await mock.close();
  });

  describe('over stdio, the whole corpus', () => {
    let session: StdioSession;
    let report: ConformanceReport;

    before(async () => {
      const { cwd, env } = await conformanceServerFolder(mock.url);
      session = await connectStdio({ cwd, env });
      report = await checkStructuredConformance({
        client: session.client,
        upstreams: [mock],
        argsFor: conformanceArgsFor,
        corpus: [...standardCorpus(), ...githubCorpus(mock.url), BITBUCKET_DOWNLOADS, GITHUB_CHECK_RUNS, GITHUB_GRAPHQL, JIRA_TRANSITIONS, CONFLUENCE_SPACES],
      });
    });
    after(async () => {
      await session.close();
    });

    it('discovers every schema tool from tools/list, fixtures and built-in vendors alike', async () => {
      const { tools } = await session.client.listTools();
      const advertised = tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
      expect(report.tools).to.deep.equal(advertised);
      expect(report.tools).to.include.members(['fixture_get', 'fixture_list_runs', 'fixture_circle_get', 'fixture_atlassian_get']);
      expect(report.tools).not.to.include.members(['artifact_read', 'fixture_atlassian_post', 'fixture_fail']);
    });

    it('has every result accepted by the SDK client and the 2020-12 validator, and keeps the contract', () => {
      assertConforms(report);
    });

    it('exercised successes, error results and oversized values for every contract', () => {
      const paged = report.tally.fixture_list_runs!;
      const circle = report.tally.fixture_circle_get!;
      const atlassian = report.tally.fixture_atlassian_get!;
      for (const tally of [paged, circle, atlassian]) expect(tally.spilled, 'huge page spilled').to.be.greaterThan(0);
      // JSON tools refuse 204, text and null bodies; the lenient Atlassian-like tool turns them into values.
      expect(paged.errors).to.be.greaterThan(0);
      expect(atlassian.structured).to.be.greaterThan(paged.structured);
      // The tools this round added: their wire formats are in the corpus, and each of them succeeded on them.
      for (const tool of [
        'github_list_pull_requests',
        'github_list_issues',
        'github_list_repositories',
        'github_get_pull_request',
        'github_get_issue',
        'bb_upload',
        'github_search_issues',
        'github_list_check_runs',
        'github_create_issue',
        'github_update_issue',
        'github_add_comment',
        'github_create_pull_request',
        'github_create_review',
        'github_merge_pull_request',
        'github_rerun_workflow',
        'github_cancel_workflow_run',
        'github_dispatch_workflow',
      ]) {
        expect(report.tally[tool]?.structured, tool).to.be.greaterThan(0);
      }
    });
  });

  describe('over Streamable HTTP, a representative corpus', () => {
    let server: HttpServerProcess;
    let client: Client;

    before(async () => {
      const { cwd, env } = await conformanceServerFolder(mock.url);
      server = await startHttpServer({ cwd, env });
      client = await connectHttp(server.url);
    });
    after(async () => {
      await client.close();
      await server.stop();
    });

    it('has every result accepted by both validators', async () => {
      const report = await checkStructuredConformance({
        client,
        upstreams: [mock],
        argsFor: conformanceArgsFor,
        corpus: representativeCorpus(),
        projections: REPRESENTATIVE_PROJECTIONS,
      });
      expect(report.tools.length).to.be.greaterThan(3);
      assertConforms(report);
    });
  });
});
