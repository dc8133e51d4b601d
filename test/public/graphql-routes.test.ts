// GraphQL routes proven from outside (issue 44): a third-party plugin written against the public API
// (test/support/tracker-plugin.ts), served by the test kit against a loopback GraphQL server running Linear's
// schema slice. A query is a read (listed as one, served under MCP_READ_ONLY, retried, cached by document and
// variables), a mutation a write (hidden under MCP_READ_ONLY, decided by `graphql` policy rules and audited by
// operation), and what a handler sends is read from the body it sends, with or without a policy.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';
import { ISSUES as LINEAR_ISSUES, linearRequests, serveLinear } from '../fixtures/linear/linear-graphql-api.js';
import { DELETE, TrackerPlugin } from '../support/tracker-plugin.js';

const KEY = 'lin_api_trackerTestKey0123456789';

async function trackerKernel(mock: MockUpstream, env: Record<string, string> = {}): Promise<TestKernel> {
  return startTestKernel({ plugins: [TrackerPlugin], env: { TRACKER_URL: mock.url, TRACKER_API_KEY: KEY, MCP_STRUCTURED_OUTPUT: 'true', ...env } });
}

const listed = async (kernel: TestKernel): Promise<Map<string, Record<string, unknown>>> => {
  const { tools } = await (await kernel.connect()).listTools();
  return new Map(tools.map((t) => [t.name, t.annotations as Record<string, unknown>]));
};

describe('GraphQL routes of a third-party plugin: reads, writes and the wire', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  before(async () => {
    mock = await MockUpstream.start();
    kernel = await trackerKernel(mock);
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    serveLinear(mock, KEY);
  });

  it('lists a query tool as a read and a mutation tool as a write, though both POST', async () => {
    const tools = await listed(kernel);
    expect(tools.get('tracker_list_issues')).to.include({ readOnlyHint: true });
    expect(tools.get('tracker_create_issue')).to.include({ readOnlyHint: false, destructiveHint: false });
    expect(tools.get('tracker_delete_issue')).to.include({ readOnlyHint: false, destructiveHint: true });
  });

  it('pages a query through pageInfo: {data, nextCursor} until nextCursor is null, each page its own POST /graphql', async () => {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const result = await kernel.call('tracker_list_issues', { first: 2, ...(cursor ? { cursor } : {}) });
      const page = result.structuredContent as { data: Array<{ identifier: string }>; nextCursor: string | null };
      seen.push(...page.data.map((i) => i.identifier));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).to.deep.equal(LINEAR_ISSUES.map((i) => i.identifier));
    expect(linearRequests(mock).map((r) => r.variables)).to.deep.equal([
      { first: 2 },
      { first: 2, after: LINEAR_ISSUES[1]!.id },
      { first: 2, after: LINEAR_ISSUES[3]!.id },
    ]);
    expect(mock.requests.every((r) => r.method === 'POST' && r.headers.authorization === KEY)).to.equal(true);
  });

  it('caches a query by its document and variables: the same page is served from the cache, another is asked for', async () => {
    await kernel.call('tracker_list_issues', { first: 3 });
    const again = await kernel.call('tracker_list_issues', { first: 3 });
    await kernel.call('tracker_list_issues', { first: 4 });
    expect((again.structuredContent as { data: unknown[] }).data).to.have.length(3);
    expect(linearRequests(mock).map((r) => r.variables)).to.deep.equal([{ first: 3 }, { first: 4 }]);
  });

  it('sends a mutation once and answers with what it made', async () => {
    const result = await kernel.call('tracker_create_issue', { teamId: 'team-eng', title: 'Retry the upload on 502' });
    expect(result.structuredContent).to.deep.equal({ data: { success: true, issue: { identifier: 'ENG-100', url: 'https://linear.app/acme/issue/ENG-100' } } });
    expect(linearRequests(mock)).to.deep.equal([
      {
        query: readQuery('tracker_create_issue'),
        variables: { input: { teamId: 'team-eng', title: 'Retry the upload on 502' } },
        operationName: 'CreateIssue',
      },
    ]);
  });

  it('refuses a mutation a query tool sends (a read-only tool declares queries only), naming the plugin, without a policy: nothing leaves', async () => {
    const result = await kernel.call('tracker_read_then_delete', { id: 'ENG-1' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain(
      "The tracker plugin's tracker_read_then_delete sent a GraphQL document it does not declare in graphql.documents (mutation DeleteIssue { issueDelete }); it was refused and nothing was sent.",
    );
    expect(linearRequests(mock).map((r) => r.query)).to.deep.equal([readQuery('tracker_list_issues')]);
  });

  it('reads the operation from the body sent: a mutation POSTed as a plain request to the endpoint is refused too', async () => {
    const result = await kernel.call('tracker_raw_post', { id: 'ENG-1' });
    expect(textOf(result)).to.contain(
      "The tracker plugin's tracker_raw_post sent a GraphQL document it does not declare in graphql.documents (mutation DeleteIssue { issueDelete }); it was refused and nothing was sent.",
    );
    expect(mock.requests).to.have.length(0);
  });

  it('refuses a query document the tool does not declare, naming the plugin', async () => {
    const result = await kernel.call('tracker_undeclared_query', { id: 'ENG-1' });
    expect(textOf(result)).to.contain(
      "The tracker plugin's tracker_undeclared_query sent a GraphQL document it does not declare in graphql.documents (query Viewer { viewer }); it was refused and nothing was sent.",
    );
    expect(linearRequests(mock)).to.have.length(1);
  });

  it("holds a passthrough's documents to its limits and to queries, saying what to change", async () => {
    const deep = await kernel.call('tracker_graphql', { query: 'query { issues { nodes { state { name } } pageInfo { endCursor } } viewer { name } }' });
    expect(deep.isError, textOf(deep)).to.equal(undefined);
    const tooDeep = await kernel.call('tracker_graphql', { query: 'query { a: issues { nodes { state { name { x } } } } }' });
    expect(textOf(tooDeep)).to.contain('nests fields deeper than 4 levels (maxDepth)');
    const mutation = await kernel.call('tracker_graphql', { query: `${DELETE}`, variables: { id: 'ENG-1' } });
    expect(textOf(mutation)).to.contain('tracker_graphql sends queries only, and the document holds a mutation. Send a query.');
    expect(linearRequests(mock)).to.have.length(1);
  });

  it('refuses a document over its byte bound before any request (a 3 MB comment), and sends a document printed, without its comments', async () => {
    const padded = await kernel.call('tracker_graphql', { query: `# ${'x'.repeat(3 * 1024 * 1024)}\n{ viewer { name } }` });
    expect(textOf(padded)).to.equal(
      'Error: Invalid GraphQL for tracker_graphql: The GraphQL document is 3145750 bytes, more than the 102400 a document may have (maxBytes), comments and layout included; send a shorter one.\nCode: invalid_graphql',
    );
    expect(mock.requests).to.have.length(0);
    const commented = await kernel.call('tracker_graphql', { query: '# who runs this?\nquery Me { viewer { name } } # the key owner' });
    expect(commented.isError, textOf(commented)).to.equal(undefined);
    expect(linearRequests(mock).map((r) => r.query)).to.deep.equal(['query Me {\n  viewer {\n    name\n  }\n}']);
  });
});

/** The document a tool sends: the one the tracker plugin declares, printed from its syntax tree (graphql's print). */
function readQuery(tool: 'tracker_list_issues' | 'tracker_create_issue'): string {
  return tool === 'tracker_list_issues'
    ? 'query Issues($first: Int!, $after: String) {\n  issues(first: $first, after: $after) {\n    nodes {\n      identifier\n      title\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}'
    : 'mutation CreateIssue($input: IssueCreateInput!) {\n  issueCreate(input: $input) {\n    success\n    issue {\n      identifier\n      url\n    }\n  }\n}';
}

describe('GraphQL routes under MCP_READ_ONLY: queries served, mutations hidden and refused', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  before(async () => {
    mock = await MockUpstream.start();
    serveLinear(mock, KEY);
    kernel = await trackerKernel(mock, { MCP_READ_ONLY: 'true' });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });

  it('serves the query tools and hides the mutation tools', async () => {
    const tools = await listed(kernel);
    expect(tools.has('tracker_list_issues')).to.equal(true);
    expect(tools.has('tracker_graphql')).to.equal(true);
    expect(tools.has('tracker_create_issue')).to.equal(false);
    expect(tools.has('tracker_delete_issue')).to.equal(false);
    const page = await kernel.call('tracker_list_issues', {});
    expect((page.structuredContent as { data: unknown[] }).data).to.have.length(2);
  });

  it('refuses a mutation in a passthrough as a read-only server, before any request', async () => {
    mock.requests.length = 0;
    const result = await kernel.call('tracker_graphql', { query: DELETE, variables: { id: 'ENG-1' } });
    expect(textOf(result)).to.contain('This server is read-only (MCP_READ_ONLY=true): send a query.');
    expect(mock.requests).to.have.length(0);
  });
});

const POLICY = `version: 1
rules:
  - id: everyone-queries
    effect: allow
    match: { graphql: { operation: query } }
  - id: developers-file-issues
    effect: allow
    match: { groups: [developers], graphql: { operation: mutation, fields: [issueCreate, commentCreate] } }
  - id: deletes-need-approval
    effect: approval_required
    reason: A deleted issue cannot be restored by an agent.
    match: { graphql: { operation: mutation, fields: ["*Delete"] } }
`;

describe('GraphQL operations decided by graphql policy rules, and audited by operation', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  let dir: string;
  const developer = { subject: 'alice', groups: ['developers'], via: 'oidc' };
  const auditRecords = (): Array<Record<string, unknown>> =>
    readFileSync(join(dir, 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  before(async () => {
    mock = await MockUpstream.start();
    dir = mkdtempSync(join(tmpdir(), 'graphql-policy-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    kernel = await trackerKernel(mock, { MCP_POLICY_FILE: join(dir, 'policy.yaml'), MCP_AUDIT_LOG: join(dir, 'audit.jsonl') });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    serveLinear(mock, KEY);
  });

  it('allows a query to anyone by its operation, though it is a POST', async () => {
    const result = await kernel.call('tracker_list_issues', {});
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(result._meta?.decision ?? null).to.equal(null);
    expect(mock.requests).to.have.length(1);
  });

  it('allows a developer the mutation its root field is allowed for, and denies it to others, naming the operation', async () => {
    const made = await kernel.call('tracker_create_issue', { teamId: 'team-eng', title: 'Flaky login test' }, developer);
    expect(made.isError, textOf(made)).to.equal(undefined);
    const refused = await kernel.call('tracker_create_issue', { teamId: 'team-eng', title: 'Flaky login test' });
    expect(refused._meta).to.deep.include({ code: 'policy_denied' });
    expect(textOf(refused)).to.contain('tracker_create_issue (POST /graphql: mutation CreateIssue { issueCreate })');
    expect(mock.requests).to.have.length(1);
  });

  it('holds a delete for approval, sending nothing', async () => {
    const held = await kernel.call('tracker_delete_issue', { id: 'ENG-4' }, developer);
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    expect(held._meta?.decision).to.deep.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
    expect(textOf(held)).to.contain('tracker_delete_issue (POST /graphql: mutation DeleteIssue { issueDelete }) needs an approver');
    expect(mock.requests).to.have.length(0);
  });

  it('audits each GraphQL call with its operation type, name and root fields, never a variable value', async () => {
    await kernel.call('tracker_create_issue', { teamId: 'team-eng', title: 'Secret roadmap item' }, developer);
    const record = auditRecords().at(-1)!;
    expect(record).to.deep.include({ tool: 'tracker_create_issue', graphql: { operation: 'mutation', name: 'CreateIssue', fields: ['issueCreate'] } });
    expect(JSON.stringify(auditRecords())).not.to.contain('Secret roadmap item');
    const query = auditRecords().find((r) => r.tool === 'tracker_list_issues')!;
    expect(query.graphql).to.deep.equal({ operation: 'query', name: 'Issues', fields: ['issues'] });
  });
});
