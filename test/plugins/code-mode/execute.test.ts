import { expect } from 'chai';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { githubFixture } from '../structured/structured-fixtures.js';
import { ARTIFACT_NOT_FOUND_TEXT, readArtifact } from '../../support/artifact-reader.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const RUNS = '/repos/octo-org/octo-repo/actions/runs';
const BOB = { subject: 'bob', groups: [], via: 'tokens' };

/** A program's result as a model reads it: its text, and the inner calls `_meta` lists. */
function callsOf(result: { _meta?: Record<string, unknown> }): Array<{ tool: string; ok: boolean; code?: string; decision: { effect: string } }> {
  return (result._meta?.['mcp-devtools/calls'] ?? []) as never;
}

describe('code mode: execute runs a program against the tools', function () {
  this.timeout(60_000);
  const t = useVendorKernel({
    plugins: ['github'],
    // MCP_FENCE=false: the programs read values as the tools give them; fences are test/plugins/provenance/'s.
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'code-mode-token', MCP_CODE_MODE: 'true', MCP_CODE_OUTPUT_BYTES: '2048', MCP_FENCE: 'false' }),
  });

  it('gives the program structured values, and shows what it printed and returned', async () => {
    t.mock.on('GET', RUNS, { body: githubFixture('workflow-run-paginated') });
    const result = await t.kernel.call('execute', {
      code: [
        "const page = await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', jq: 'workflow_runs[*].{id: id, conclusion: conclusion}' });",
        'const runs = page.data as Array<{ id: number; conclusion: string | null }>;',
        "console.log('runs:', runs.length, 'next page:', page.nextPage);",
        'return runs.map((run) => run.id);',
      ].join('\n'),
    });
    expect(result.isError, textOf(result)).to.equal(undefined);
    const ids = (githubFixture('workflow-run-paginated').workflow_runs as Array<{ id: number }>).map((r) => r.id);
    expect(textOf(result)).to.equal(`runs: ${ids.length} next page: null\nReturned: ${JSON.stringify(ids)}`);
    expect(callsOf(result)).to.deep.equal([{ tool: 'github_list_workflow_runs', ok: true, decision: { effect: 'allow' }, writes: false }]);
  });

  it("sends each inner call upstream under the execute call's request id", async () => {
    t.mock.on('GET', RUNS, { body: { total_count: 0, workflow_runs: [] } });
    const code =
      "await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo' });\nawait tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', page: 2 });";
    const result = await t.kernel.kernel.call('execute', { code }, LOCAL_PRINCIPAL, { requestId: 'req-code-mode-7' });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(t.mock.requests.map((r) => r.headers['x-request-id'])).to.deep.equal(['req-code-mode-7', 'req-code-mode-7']);
  });

  it('turns an error result into a ToolCallError the program can catch, with its code', async () => {
    t.mock.on('GET', RUNS, { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } });
    const result = await t.kernel.call('execute', {
      code: [
        'try {',
        "  await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo' });",
        '} catch (error) {',
        '  if (error instanceof ToolCallError) console.log(error.name, error.tool, error.code);',
        '}',
      ].join('\n'),
    });
    expect(textOf(result)).to.equal('ToolCallError github_list_workflow_runs upstream_http_error');
    expect(callsOf(result)[0]).to.include({ tool: 'github_list_workflow_runs', ok: false, code: 'upstream_http_error' });
  });

  it('reports a syntax error with its line and column, and runs nothing', async () => {
    const result = await t.kernel.call('execute', { code: "const a = 1;\nconst b = (a +;\nawait tools.github_list_workflow_runs({ owner: 'o', repo: 'r' });" });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.match(/has a syntax error and was not run/);
    expect(textOf(result)).to.match(/line 2, column 15: Expression expected/);
    expect(textOf(result)).to.include('Code: program_invalid');
    expect(t.mock.requests).to.have.length(0);
  });

  it('reports a type error against the declarations with its line, and runs nothing', async () => {
    const result = await t.kernel.call('execute', {
      code: "// first line\nconst page = await tools.github_list_workflow_runs({ owner: 'octo-org', repository: 'octo-repo' });",
    });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.match(/has a type error and was not run/);
    expect(textOf(result)).to.match(/line 2, column \d+: .*'repository'/);
    expect(t.mock.requests).to.have.length(0);
  });

  it("checks a program against ES2023's library only: its newest methods pass, ES2024's and the host's are type errors", async () => {
    const ok = await t.kernel.call('execute', { code: 'return [3, 1, 2].toSorted().findLast((n) => n < 3);' });
    expect(textOf(ok)).to.equal('Returned: 2');
    const newer = await t.kernel.call('execute', { code: 'return Object.groupBy([1, 2], (n: number) => String(n % 2));' });
    expect(textOf(newer)).to.match(
      /has a type error and was not run; fix it and run it again:\nline 1, column 15: Property 'groupBy' does not exist on type 'ObjectConstructor'/,
    );
    const host = await t.kernel.call('execute', { code: 'setTimeout(() => undefined, 1);\nreturn typeof process;' });
    expect(textOf(host)).to.match(/line 1, column 1: Cannot find name 'setTimeout'/);
    expect(textOf(host)).to.match(/line 2, column 15: Cannot find name 'process'/);
  });

  it('reads a structured value too large to send inline back whole, so the program never sees incomplete', async () => {
    const run = (githubFixture('workflow-run-paginated').workflow_runs as Array<Record<string, unknown>>)[0]!;
    const runs = Array.from({ length: 200 }, (_, i) => ({ ...run, id: 1000 + i, display_title: `Ünïcödé ${i} 🚀`.padEnd(400, '.') }));
    t.mock.on('GET', RUNS, { body: { total_count: 200, workflow_runs: runs } });
    const result = await t.kernel.call('execute', {
      code: [
        "const page = await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo' });",
        "console.log('incomplete' in page, (page.data as { workflow_runs: Array<{ id: number; display_title: string }> }).workflow_runs.at(-1)!.display_title.slice(0, 14));",
      ].join('\n'),
    });
    expect(textOf(result), 'the page is over the structured bound (262,144 bytes)').to.equal('false Ünïcödé 199 🚀');
  });

  it('puts printed output over MCP_CODE_OUTPUT_BYTES in an artifact its caller reads, and no one else', async () => {
    const result = await t.kernel.call('execute', { code: "for (let i = 0; i < 500; i++) console.log(`line ${i} ${'é'.repeat(20)}`);" });
    const text = textOf(result);
    expect(Buffer.byteLength(text.split('\n... (output cut')[0]!, 'utf8')).to.be.at.most(2048);
    const artifactId = /artifact (\S+): read it with artifact_read/.exec(text)?.[1];
    expect(artifactId, text).to.be.a('string');
    const { content } = await readArtifact(await t.kernel.connect(), artifactId!);
    expect(content.toString('utf8').split('\n'))
      .to.have.length(500)
      .and.to.include(`line 499 ${'é'.repeat(20)}`);
    const foreign = await t.kernel.call('artifact_read', { artifactId: artifactId! }, BOB);
    expect(foreign.isError).to.equal(true);
    expect(textOf(foreign)).to.equal(ARTIFACT_NOT_FOUND_TEXT);
    // Nor through a program of Bob's.
    const probe = await t.kernel.call(
      'execute',
      {
        code: `try { await tools.artifact_read({ artifactId: '${artifactId}' }); console.log('read'); } catch (e) { console.log((e as ToolCallError).code); }`,
      },
      BOB,
    );
    expect(textOf(probe)).to.equal('artifact_not_found');
  });

  it('shows declarations for a query, and the toolsets with their tools without one', async () => {
    const found = textOf(await t.kernel.call('search_tools', { query: 'list workflow jobs' }));
    expect(found).to.include('declare namespace GithubListWorkflowJobs {');
    expect(found).to.match(/github_list_workflow_jobs\(args: GithubListWorkflowJobs\.Input\): Promise<GithubListWorkflowJobs\.Output>;/);
    // A word matches where a word starts ("run" is not in "rerun"), and the tool whose name the query covers ranks first.
    expect(found).not.to.include('rerun');
    const runs = textOf(await t.kernel.call('search_tools', { query: 'list workflow runs' }));
    expect(runs.match(/^declare namespace \w+/gm)).to.deep.equal(['declare namespace GithubListWorkflowRuns']);
    // A tool named in the query is shown whatever the words score.
    const named = textOf(await t.kernel.call('search_tools', { query: 'list workflow runs github_rerun_workflow' }));
    expect(named.match(/^declare namespace \w+/gm)).to.have.members(['declare namespace GithubListWorkflowRuns', 'declare namespace GithubRerunWorkflow']);
    const index = textOf(await t.kernel.call('search_tools', {}));
    expect(index).to.match(/^github\.actions: .*github_list_workflow_runs/m);
    expect(index).not.to.match(/\bexecute\b|\bsearch_tools\b/);
  });

  it('serves only search_tools, execute and artifact_read, and refuses a direct call to the tools behind them', async () => {
    const client = await t.kernel.connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).to.deep.equal(['artifact_read', 'execute', 'search_tools']);
    const direct = await client.callTool({ name: 'github_list_workflow_runs', arguments: { owner: 'o', repo: 'r' } }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expect(direct).to.match(/MCP_CODE_MODE=true \(--code-mode\) serves search_tools, execute and artifact_read only/);
  });
});
