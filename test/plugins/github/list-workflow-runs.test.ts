import { expect } from 'chai';
import { pagedListReply, workflowRuns } from '../../fixtures/github/github-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_runsTestToken0123456789';
const RUNS_PATH = '/repos/octo-org/octo-repo/actions/runs';

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('github_list_workflow_runs (in-process, against a GitHub-shaped mock)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_FENCE: 'false' }) });
  const runs = workflowRuns(61);

  const json = async (args: Record<string, unknown>): Promise<{ data: unknown; nextPage: number | null }> => {
    const result = await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo', outputFormat: 'json', ...args });
    expect(result.isError, textOf(result)).to.equal(undefined);
    return JSON.parse(textOf(result)) as { data: unknown; nextPage: number | null };
  };

  it("returns the first page as {data, nextPage} with GitHub's headers, 30 runs by default", async () => {
    t.mock.on('GET', RUNS_PATH, (req) => pagedListReply(req, { key: 'workflow_runs', items: runs, linkPath: '/repositories/1296269/actions/runs' }));
    // Thirty whole runs exceed the 40,000-character text limit: project to what the assertion needs.
    const { data, nextPage } = await json({ jq: '{total: total_count, ids: workflow_runs[*].id}' });
    expect(data).to.deep.equal({ total: 61, ids: runs.slice(0, 30).map((r) => r.id) });
    expect(nextPage).to.equal(2);
    const sent = t.mock.requests[0]!;
    expect(sent.query.get('per_page')).to.equal('30');
    expect(sent.query.get('page')).to.equal('1');
    expect(sent.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(sent.headers.accept).to.equal('application/vnd.github+json');
    expect(sent.headers['x-github-api-version']).to.equal('2022-11-28');
    expect(sent.headers['user-agent']).to.match(/^mcp-devtools\/\d+\.\d+\.\d+$/);
  });

  it('renders TOON by default, with nextPage beside the data', async () => {
    t.mock.on('GET', RUNS_PATH, (req) => pagedListReply(req, { key: 'workflow_runs', items: runs, linkPath: '/repositories/1296269/actions/runs' }));
    const text = textOf(
      await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo', perPage: 2, jq: 'workflow_runs[*].{id: id, status: status}' }),
    );
    expect(text).to.equal(`nextPage: 2\ndata[2]{id,status}:\n  ${runs[0]!.id},queued\n  ${runs[1]!.id},queued`);
  });

  it('walks every page by nextPage until null, reading the page number from /repositories/{id}/ next URLs', async () => {
    t.mock.on('GET', RUNS_PATH, (req) => pagedListReply(req, { key: 'workflow_runs', items: runs, linkPath: '/repositories/1296269/actions/runs' }));
    const seen: number[] = [];
    const pages: Array<number | null> = [];
    for (let page: number | null = 1; page !== null;) {
      const result: { data: unknown; nextPage: number | null } = await json({ page, perPage: 25, jq: 'workflow_runs[*].id' });
      seen.push(...(result.data as number[]));
      pages.push(result.nextPage);
      page = result.nextPage;
    }
    expect(pages).to.deep.equal([2, 3, null]);
    expect(seen).to.deep.equal(runs.map((r) => r.id));
    // The next URLs named /repositories/1296269/...: only their page was used, never their path.
    expect(t.mock.requests.map((r) => r.path)).to.deep.equal([RUNS_PATH, RUNS_PATH, RUNS_PATH]);
  });

  it("sends every filter as GitHub's query parameter, and a workflow file name in the path", async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/actions/workflows/:workflow/runs', (req) =>
      pagedListReply(req, { key: 'workflow_runs', items: runs.slice(0, 3), linkPath: '/repositories/1296269/actions/workflows/161335/runs' }),
    );
    const { nextPage } = await json({
      jq: 'total_count',
      workflowId: 'ci.yml',
      branch: 'main',
      status: 'failure',
      event: 'push',
      actor: 'octocat',
      created: '>=2020-01-01',
      headSha: 'acb5820ced9479c074f688cc328bf03f341a511d',
      perPage: 100,
      page: 1,
    });
    expect(nextPage).to.equal(null);
    const sent = t.mock.requests[0]!;
    expect(sent.params.workflow).to.equal('ci.yml');
    expect(Object.fromEntries(sent.query)).to.deep.equal({
      branch: 'main',
      status: 'failure',
      event: 'push',
      actor: 'octocat',
      created: '>=2020-01-01',
      head_sha: 'acb5820ced9479c074f688cc328bf03f341a511d',
      per_page: '100',
      page: '1',
    });
  });

  it('accepts a numeric workflow id', async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/actions/workflows/161335/runs', (req) =>
      pagedListReply(req, { key: 'workflow_runs', items: [], linkPath: '/repositories/1296269/actions/workflows/161335/runs' }),
    );
    await json({ workflowId: 161335 });
    expect(t.mock.requests).to.have.length(1);
  });

  it("shows an empty list as [] and nextPage null, exactly as the structured contract's example", async () => {
    t.mock.on('GET', RUNS_PATH, (req) => pagedListReply(req, { key: 'workflow_runs', items: [], linkPath: '/repositories/1296269/actions/runs' }));
    const result = await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo', outputFormat: 'json' });
    expect(JSON.parse(textOf(result))).to.deep.equal({ data: { total_count: 0, workflow_runs: [] }, nextPage: null });
    expect(textOf(await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo' }))).to.equal(
      'nextPage: null\ndata:\n  total_count: 0\n  workflow_runs: []',
    );
  });

  const badArguments: Array<[string, Record<string, unknown>, string]> = [
    ['owner', { owner: 'octo-org/x' }, 'must match pattern'],
    ['perPage', { perPage: 101 }, 'must be <= 100 (got 101)'],
    ['page', { page: 0 }, 'must be >= 1 (got 0)'],
    ['status', { status: 'broken' }, 'must be one of "completed", "action_required"'],
    ['headSha', { headSha: 'not-a-sha' }, 'must match pattern'],
    ['workflowId', { workflowId: '../ci.yml' }, 'must match pattern'],
  ];
  for (const [field, args, expected] of badArguments) {
    it(`refuses a bad ${field} with a message naming it, and sends nothing`, async () => {
      const result = await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo', ...args });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('Invalid arguments for github_list_workflow_runs');
      expect(textOf(result)).to.match(new RegExp(`^- ${field}: ${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
      expect(t.mock.requests).to.have.length(0);
    });
  }
});

describe('github_list_workflow_runs against GitHub Enterprise Server (base URL with /api/v3)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: `${url}/api/v3`, GITHUB_TOKEN: TOKEN, MCP_FENCE: 'false' }) });

  it('keeps the /api/v3 path of the base URL and reads nextPage from GHES next URLs', async () => {
    const runs = workflowRuns(3);
    t.mock.on('GET', `/api/v3${RUNS_PATH}`, (req) =>
      pagedListReply(req, { key: 'workflow_runs', items: runs, linkPath: '/api/v3/repositories/42/actions/runs' }),
    );
    const result = await t.kernel.call('github_list_workflow_runs', {
      owner: 'octo-org',
      repo: 'octo-repo',
      perPage: 2,
      jq: 'workflow_runs[*].id',
      outputFormat: 'json',
    });
    expect(JSON.parse(textOf(result))).to.deep.equal({ data: [runs[0]!.id, runs[1]!.id], nextPage: 2 });
    expect(t.mock.requests.map((r) => r.path)).to.deep.equal([`/api/v3${RUNS_PATH}`]);
  });
});

describe('GitHub tools without GITHUB_TOKEN', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url }) });

  it('says which setting to set, without any request', async () => {
    const result = await t.kernel.call('github_list_workflow_runs', { owner: 'octo-org', repo: 'octo-repo' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('Code: missing_credentials');
    expect(textOf(result)).to.contain('set GITHUB_TOKEN');
    expect(t.mock.requests).to.have.length(0);
  });
});
