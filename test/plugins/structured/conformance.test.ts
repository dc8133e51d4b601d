import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { standardCorpus } from '../../../core/testing/conformance-corpus.js';
import { MockUpstream } from '../../../core/testing/mock-upstream.js';
import { assertConforms } from '../../../core/testing/plugin-conformance.js';
import { checkStructuredConformance, type ConformanceReport } from '../../../core/testing/structured-conformance.js';
import { VENDORS } from '../../../server/bootstrap/builtin-plugins.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess, type StdioSession } from '../../support/sdk-client.js';
import { FIXTURE_PLUGIN_PATH } from '../../support/fixture-plugin.js';
import { issuesWithPullRequests, pullRequests, repositories } from '../../fixtures/github/github-repo-api.js';
import { githubFixture, githubLink, STRUCTURED_FIXTURE_PATH } from './structured-fixtures.js';
import { vendorSettingsAgainst } from './vendor-env.js';

/** Every built-in vendor plus the fixture plugins with Paged, CircleCI-like and Atlassian-like envelopes. */
async function serverFolder(mockUrl: string): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-conformance-'));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [...Object.keys(VENDORS), FIXTURE_PLUGIN_PATH, STRUCTURED_FIXTURE_PATH] }));
  const env = { ...(await vendorSettingsAgainst(cwd, mockUrl)), FIXTURE_BASE_URL: mockUrl, FIXTURE_TOKEN: 'conformance-token', MCP_STRUCTURED_OUTPUT: 'true' };
  return { cwd, env };
}

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
  const objects = ['pull-request', 'issue', 'repository'].map((name) => ({ name: `github fixture ${name}`, reply: { status: 200, body: githubFixture(name) } }));
  return [...fixtures, ...arrays, ...objects];
}

/** Bitbucket's Downloads listing (what bb_upload checks names against) as its last page: no `next`. */
const BITBUCKET_DOWNLOADS = {
  name: 'bitbucket downloads listing',
  reply: { status: 200, body: { pagelen: 100, values: [{ name: 'previous-build.zip', type: 'download', size: 2048, downloads: 3, created_on: '2026-10-01T09:00:00.000000+00:00' }], page: 1, size: 1 } },
};

/** Paths inside each product's API boundary, for the tools whose path rules refuse the generic placeholder. */
const PRODUCT_PATHS: Record<string, string> = { jira_get: '/rest/api/3/conformance', conf_get: '/wiki/api/v2/conformance' };
/** bb_upload needs a file whose content decodes; the arguments derived from its schema have none. */
const UPLOAD_ARGS = { workspace: 'acme', repo: 'app', files: [{ name: 'report.txt', content: Buffer.from('conformance\n').toString('base64') }] };
const argsFor = (tool: { name: string }): Record<string, unknown> | undefined =>
  tool.name === 'bb_upload' ? UPLOAD_ARGS : PRODUCT_PATHS[tool.name] === undefined ? undefined : { path: PRODUCT_PATHS[tool.name] };

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
      const { cwd, env } = await serverFolder(mock.url);
      session = await connectStdio({ cwd, env });
      report = await checkStructuredConformance({ client: session.client, upstreams: [mock], argsFor, corpus: [...standardCorpus(), ...githubCorpus(mock.url), BITBUCKET_DOWNLOADS] });
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
      for (const tool of ['github_list_pull_requests', 'github_list_issues', 'github_list_repositories', 'github_get_pull_request', 'github_get_issue', 'bb_upload']) {
        expect(report.tally[tool]?.structured, tool).to.be.greaterThan(0);
      }
    });
  });

  describe('over Streamable HTTP, a representative corpus', () => {
    let server: HttpServerProcess;
    let client: Client;

    before(async () => {
      const { cwd, env } = await serverFolder(mock.url);
      server = await startHttpServer({ cwd, env });
      client = await connectHttp(server.url);
    });
    after(async () => {
      await client.close();
      await server.stop();
    });

    it('has every result accepted by both validators', async () => {
      const wanted = new Set(['github page with a next page', 'empty collection', 'unicode everywhere', 'huge page', '204 no content', 'text body (a diff)', 'json null']);
      const report = await checkStructuredConformance({
        client,
        upstreams: [mock],
        argsFor,
        corpus: [...standardCorpus().filter((c) => wanted.has(c.name)), BITBUCKET_DOWNLOADS],
        projections: [{}, { outputFormat: 'json' }, { jq: 'no_such_field', outputFormat: 'json' }, { jq: '[*', outputFormat: 'json' }],
      });
      expect(report.tools.length).to.be.greaterThan(3);
      assertConforms(report);
    });
  });
});
