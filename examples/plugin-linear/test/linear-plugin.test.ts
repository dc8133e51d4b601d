import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse, print } from 'graphql';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';
import { LinearPlugin } from '../src/index.js';
import { CREATE_ISSUE } from '../src/documents.js';
import { ISSUES, sentOperations, serveLinear, TEAM_ID } from './linear-api.js';

const KEY = 'lin_api_exampleKey000000000000000000000000';

async function linearKernel(mock: MockUpstream, env: Record<string, string> = {}): Promise<TestKernel> {
  return startTestKernel({ plugins: [LinearPlugin], env: { LINEAR_API_URL: mock.url, LINEAR_API_KEY: KEY, MCP_STRUCTURED_OUTPUT: 'true', ...env } });
}

describe('linear plugin: issues paged by pageInfo, an issue created from Markdown', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    kernel = await linearKernel(mock);
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    serveLinear(mock, KEY);
  });

  it('lists the query tools as reads and the mutation as a write, though every request is a POST', async () => {
    const { tools } = await (await kernel.connect()).listTools();
    const hints = Object.fromEntries(tools.filter((t) => t.name.startsWith('linear_')).map((t) => [t.name, t.annotations?.readOnlyHint]));
    expect(hints).to.deep.equal({ linear_list_issues: true, linear_create_issue: false, linear_graphql: true });
  });

  it('walks every page with nextCursor (pageInfo.endCursor), keeping the Markdown descriptions', async () => {
    const seen: Array<{ identifier: string; description: string | null }> = [];
    let cursor: string | null | undefined;
    do {
      const result = await kernel.call('linear_list_issues', { team: 'ENG', first: 2, ...(cursor ? { cursor } : {}) });
      const page = result.structuredContent as { data: typeof seen; nextCursor: string | null };
      seen.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen.map((i) => i.identifier)).to.deep.equal(ISSUES.map((i) => i.identifier));
    expect(seen[1]!.description).to.equal('The `orders` query takes **4 s**:\n\n- add an index\n- page it');
    expect(sentOperations(mock).map((o) => o.variables)).to.deep.equal([
      { team: 'ENG', first: 2 },
      { team: 'ENG', first: 2, after: ISSUES[1]!.id },
      { team: 'ENG', first: 2, after: ISSUES[3]!.id },
    ]);
    expect(mock.requests.every((r) => r.method === 'POST' && r.path === '/graphql' && r.headers.authorization === KEY)).to.equal(true);
  });

  it('creates an issue and answers with its identifier and URL', async () => {
    const description = '## Steps\n\n1. Log in\n2. See the **500**';
    const result = await kernel.call('linear_create_issue', { teamId: TEAM_ID, title: 'Login 500s', description, priority: 2 });
    expect(result.structuredContent).to.deep.equal({ data: { identifier: 'ENG-100', title: 'Login 500s', url: 'https://linear.app/acme/issue/ENG-100' } });
    // The document goes out as graphql prints what it parsed: Linear reads exactly what the server's policy read.
    // Its operation's name goes with it.
    expect(sentOperations(mock)).to.deep.equal([
      {
        query: print(parse(CREATE_ISSUE)),
        variables: { input: { teamId: TEAM_ID, title: 'Login 500s', description, priority: 2 } },
        operationName: 'CreateIssue',
      },
    ]);
  });

  it("says what Linear refused (400), without the key", async () => {
    const result = await kernel.call('linear_create_issue', { teamId: 'nope', title: 'x' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('Entity not found: Team');
    expect(textOf(result)).not.to.contain(KEY);
  });

  it('runs any query through linear_graphql, and refuses a mutation there without sending it', async () => {
    const viewer = await kernel.call('linear_graphql', { query: 'query { viewer { name } }', jq: 'data.viewer.name' });
    expect(viewer.structuredContent).to.deep.equal({ data: 'Ada Lovelace' });
    const mutation = await kernel.call('linear_graphql', { query: CREATE_ISSUE, variables: { input: { teamId: TEAM_ID, title: 'x' } } });
    expect(textOf(mutation)).to.contain('linear_graphql sends queries only, and the document holds a mutation.');
    expect(mock.requests).to.have.length(1);
  });
});

describe('linear plugin under --read-only and under a policy', () => {
  let mock: MockUpstream;
  const kernels: TestKernel[] = [];
  before(async () => {
    mock = await MockUpstream.start();
    serveLinear(mock, KEY);
  });
  after(async () => {
    for (const k of kernels) await k.close();
    await mock.close();
  });

  it('serves the queries and hides the create on a read-only server', async () => {
    const kernel = await linearKernel(mock, { MCP_READ_ONLY: 'true' });
    kernels.push(kernel);
    const { tools } = await (await kernel.connect()).listTools();
    expect(tools.map((t) => t.name).filter((n) => n.startsWith('linear_')).sort()).to.deep.equal(['linear_graphql', 'linear_list_issues']);
    expect((await kernel.call('linear_list_issues', { team: 'ENG' })).isError).to.equal(undefined);
  });

  it('holds an issueCreate for approval by a graphql rule, and lets every query through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linear-policy-'));
    writeFileSync(
      join(dir, 'policy.yaml'),
      [
        'version: 1',
        'rules:',
        '  - { id: linear-reads, effect: allow, match: { vendors: [linear], graphql: { operation: query } } }',
        '  - { id: new-issues-wait, effect: approval_required, match: { graphql: { operation: mutation, fields: [issueCreate] } } }',
        '',
      ].join('\n'),
    );
    const kernel = await linearKernel(mock, { MCP_POLICY_FILE: join(dir, 'policy.yaml') });
    kernels.push(kernel);
    mock.requests.length = 0;
    const held = await kernel.call('linear_create_issue', { teamId: TEAM_ID, title: 'Held' });
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    expect(textOf(held)).to.contain('linear_create_issue (POST /graphql: mutation CreateIssue { issueCreate })');
    expect(mock.requests).to.have.length(0);
    expect((await kernel.call('linear_list_issues', { team: 'ENG' })).isError).to.equal(undefined);
  });
});
