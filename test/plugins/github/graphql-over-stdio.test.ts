import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { parse, print } from 'graphql';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { graphqlRequests, serveGithubGraphql } from '../../fixtures/github/github-graphql-api.js';
import { grantThroughServer } from '../../support/decision-server.js';
import { runCli } from '../../support/run-cli.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';

const TOKEN = 'ghp_graphqlStdioTestToken0123456789';

/** An operator's rules for github_graphql with mutations allowed: reads for all, a close waits, a delete never. */
const POLICY = `version: 1
rules:
  - id: graphql-reads
    effect: allow
    match: { tools: [github_graphql], graphql: { operation: query } }
  - id: closing-needs-approval
    effect: approval_required
    reason: An agent closes an issue only with a person's grant.
    match: { tools: [github_graphql], graphql: { operation: mutation, fields: [closeIssue, reopenIssue] } }
  - id: no-deletes
    effect: deny
    reason: Issues are never deleted by agents.
    match: { graphql: { fields: ["delete*"] } }
`;

const CLOSE = 'mutation Close($id: ID!) { closeIssue(input: { issueId: $id }) { issue { number state } } }';

// The built server (dist/cli.js) over stdio with the SDK client: github_graphql decided by graphql policy rules,
// held for approval and granted through the CLI (shared SQLite store), audited by operation; and under --read-only.
describe('github_graphql over stdio: graphql policy rules, an approval hold, the audit, --read-only (built server)', function () {
  this.timeout(60_000);
  let api: MockUpstream;
  let session: StdioSession;
  let dir: string;
  let env: Record<string, string>;
  const call = async (args: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name: 'github_graphql', arguments: args })) as CallToolResult;

  before(async () => {
    api = await MockUpstream.start();
    serveGithubGraphql(api, TOKEN);
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-gh-graphql-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    env = {
      GITHUB_API_URL: api.url,
      GITHUB_TOKEN: TOKEN,
      GITHUB_GRAPHQL_MUTATIONS: 'true',
      MCP_TOOLSETS: 'github.repos',
      MCP_POLICY_FILE: join(dir, 'policy.yaml'),
      MCP_AUDIT_LOG: join(dir, 'audit.jsonl'),
      MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}`,
    };
    session = await connectStdio({ env, cwd: dir });
  });
  after(async () => {
    await session?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a query the policy allows', async () => {
    const result = await call({ query: 'query { viewer { login } }', jq: 'data.viewer.login' });
    expect(textOf(result)).to.equal('octocat');
  });

  it('denies a delete by its root field, sending nothing', async () => {
    api.requests.length = 0;
    const result = await call({ query: 'mutation { deleteIssue(input: { issueId: "I_kwDOAbc1349" }) { repository { id } } }' });
    expect(result._meta).to.deep.include({ code: 'policy_denied' });
    expect(result._meta?.decision).to.deep.include({ effect: 'deny', ruleId: 'no-deletes' });
    expect(textOf(result)).to.contain('github_graphql (POST /graphql: mutation { deleteIssue })');
    expect(api.requests).to.have.length(0);
  });

  it('holds a close for approval; after a grant through the CLI it is sent once, exactly as held', async () => {
    api.requests.length = 0;
    const args = { query: CLOSE, variables: { id: 'I_kwDOAbc1351' } };
    const held = await call(args);
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    const { approvalId } = held._meta?.decision as { approvalId: string };
    expect(api.requests).to.have.length(0);
    // Over stdio, the approver decides through the same configuration served over HTTP on the same store.
    const grant = await grantThroughServer({ cwd: dir, env }, approvalId);
    expect(grant.code, grant.stderr).to.equal(0);
    const granted = await call(args);
    expect(granted.isError, textOf(granted)).to.equal(undefined);
    expect(textOf(granted)).to.contain('state: CLOSED');
    expect(graphqlRequests(api)).to.deep.equal([{ query: print(parse(CLOSE)), variables: { id: 'I_kwDOAbc1351' }, operationName: 'Close' }]);
  });

  it('audits every call with its operation, never a variable value', async () => {
    const records = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { tool: string; graphql?: unknown });
    expect(records.filter((r) => r.tool === 'github_graphql').map((r) => r.graphql)).to.deep.include.members([
      { operation: 'query', name: null, fields: ['viewer'] },
      { operation: 'mutation', name: null, fields: ['deleteIssue'] },
      { operation: 'mutation', name: 'Close', fields: ['closeIssue'] },
    ]);
    expect(readFileSync(join(dir, 'audit.jsonl'), 'utf8')).not.to.contain('I_kwDOAbc1351');
  });

  it('policy explain shows the operation and the rule that decides it', async () => {
    const run = await runCli(
      ['policy', 'explain', join(dir, 'policy.yaml'), '--tool', 'github_graphql', '--args', JSON.stringify({ query: CLOSE }), '--subject', 'alice'],
      {
        cwd: dir,
        env,
      },
    );
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).to.equal("Decision: approval_required by rule closing-needs-approval: An agent closes an issue only with a person's grant.");
    expect(lines).to.include('GraphQL:  mutation Close, root fields [closeIssue] (what graphql rules matched)');
  });

  it('under --read-only serves github_graphql as a read and refuses a mutation, whatever GITHUB_GRAPHQL_MUTATIONS says', async () => {
    const readOnly = await connectStdio({ env, cwd: dir, args: ['--read-only'] });
    try {
      const tool = (await readOnly.client.listTools()).tools.find((t) => t.name === 'github_graphql')!;
      expect(tool.annotations).to.deep.include({ readOnlyHint: true });
      api.requests.length = 0;
      const refused = (await readOnly.client.callTool({
        name: 'github_graphql',
        arguments: { query: CLOSE, variables: { id: 'I_kwDOAbc1348' } },
      })) as CallToolResult;
      expect(textOf(refused)).to.contain('This server is read-only (MCP_READ_ONLY=true): send a query.');
      expect(api.requests).to.have.length(0);
      const query = (await readOnly.client.callTool({
        name: 'github_graphql',
        arguments: { query: 'query { viewer { login } }', jq: 'data.viewer.login' },
      })) as CallToolResult;
      expect(textOf(query)).to.equal('octocat');
    } finally {
      await readOnly.close();
    }
  });
});
