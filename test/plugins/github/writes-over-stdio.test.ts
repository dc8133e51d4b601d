import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { issueAnswer } from '../../fixtures/github/github-write-api.js';
import { grantThroughServer } from '../../support/decision-server.js';
import { runCli } from '../../support/run-cli.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';

const TOKEN = 'ghp_writesStdioTestToken0123456789';

/** What an operator would write: agents never file issues in infra, and a security issue waits for a human. */
const POLICY = `version: 1
rules:
  - id: no-agent-issues-in-infra
    effect: deny
    reason: Issues in infra are filed by people.
    match: { tools: [github_create_issue], paths: ["/repos/octo-org/infra/*"] }
  - id: security-issues-need-approval
    effect: approval_required
    reason: A security issue is read by a person before it is filed.
    match: { tools: [github_create_issue], args: { labels: security } }
  - id: github-for-everyone
    effect: allow
    match: { vendors: [github] }
`;

// The wire path for writes: dist/cli.js over stdio with the official SDK client, a policy file and a SQLite store
// the approvals CLI shares with the server.
describe('GitHub writes over stdio: structured answers, a policy deny and an approval hold (built server)', function () {
  this.timeout(60_000);
  let api: MockUpstream;
  let session: StdioSession;
  let dir: string;
  let env: Record<string, string>;
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  const posts = (): string[] => api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.body}`);

  before(async () => {
    api = await MockUpstream.start();
    api.on('POST', '/repos/octo-org/:repo/issues', (req) => ({ status: 201, body: issueAnswer(req, 1400) }));
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-gh-writes-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    env = {
      GITHUB_API_URL: api.url,
      GITHUB_TOKEN: TOKEN,
      MCP_STRUCTURED_OUTPUT: 'true',
      MCP_POLICY_FILE: join(dir, 'policy.yaml'),
      MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}`,
      LOG_LEVEL: 'debug',
    };
    session = await connectStdio({ env, cwd: dir });
  });
  after(async () => {
    await session?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the write tools with their hints and output schemas', async () => {
    const { tools } = await session.client.listTools();
    const merge = tools.find((t) => t.name === 'github_merge_pull_request')!;
    expect(merge.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: true });
    expect(merge.outputSchema?.required).to.deep.equal(['data']);
    expect(tools.find((t) => t.name === 'github_create_issue')!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: false });
  });

  it('files an issue the policy allows and answers with its number and address, as text and structured', async () => {
    const result = await call('github_create_issue', { owner: 'octo-org', repo: 'octo-repo', title: 'Deploy flakes', labels: ['bug'] });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(result.structuredContent).to.deep.equal({
      data: {
        number: 1400,
        title: 'Deploy flakes',
        state: 'open',
        labels: ['bug'],
        assignees: ['octocat'],
        html_url: 'https://github.com/octo-org/octo-repo/issues/1400',
      },
    });
    expect(textOf(result)).to.contain('number: 1400');
    expect(posts()).to.deep.equal(['POST /repos/octo-org/octo-repo/issues {"title":"Deploy flakes","labels":["bug"]}']);
    expect(api.requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
  });

  it('denies an issue in infra by the rule, sending nothing', async () => {
    api.requests.length = 0;
    const result = await call('github_create_issue', { owner: 'octo-org', repo: 'infra', title: 'Rotate the keys' });
    expect(result.isError).to.equal(true);
    expect(result._meta).to.deep.include({ code: 'policy_denied' });
    expect(result._meta?.decision).to.deep.include({ effect: 'deny', ruleId: 'no-agent-issues-in-infra', reason: 'Issues in infra are filed by people.' });
    expect(api.requests).to.have.length(0);
  });

  it('holds a security issue for approval; after a grant (CLI, through an HTTP server on the shared SQLite store) it is filed once, exactly as held', async () => {
    api.requests.length = 0;
    const args = { owner: 'octo-org', repo: 'octo-repo', title: 'Token printed in a job log', labels: ['security', 'ci'] };
    const held = await call('github_create_issue', args);
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    const { approvalId } = held._meta?.decision as { approvalId: string };
    expect(api.requests).to.have.length(0);

    const list = await runCli(['approvals', 'list', '--json'], { cwd: dir, env });
    expect(list.code, list.stderr).to.equal(0);
    const pending = (JSON.parse(list.stdout) as Array<{ id: string; tool: string; request: unknown }>).find((a) => a.id === approvalId);
    expect(pending).to.deep.include({ tool: 'github_create_issue', request: { method: 'POST', path: '/repos/octo-org/octo-repo/issues' } });
    // Over stdio, the approver decides through the same configuration served over HTTP on the same store.
    const grant = await grantThroughServer({ cwd: dir, env }, approvalId);
    expect(grant.code, grant.stderr).to.equal(0);

    const granted = await call('github_create_issue', args);
    expect(granted.isError, textOf(granted)).to.equal(undefined);
    expect((granted.structuredContent as { data: { labels: string[] } }).data.labels).to.deep.equal(['security', 'ci']);
    const again = await call('github_create_issue', args);
    expect(again._meta).to.deep.include({ code: 'approval_required' });
    expect(posts()).to.deep.equal(['POST /repos/octo-org/octo-repo/issues {"title":"Token printed in a job log","labels":["security","ci"]}']);
    expect(session.stderr.join('\n')).not.to.contain(TOKEN);
  });
});
