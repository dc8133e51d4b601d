import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { grantThroughServer } from '../../support/decision-server.js';
import { runCli } from '../../support/run-cli.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';
import { ACCOUNT } from '../atlassian/atlassian-calls.js';

/** Writes of both products are decided: one denied outright, one held for an approver. */
const POLICY = `version: 1
rules:
  - id: security-files-its-own
    effect: deny
    reason: Issues in SEC are filed by the security team.
    match: { tools: [jira_create_issue], args: { projectKey: [SEC] } }
  - id: new-issues-need-approval
    effect: approval_required
    match: { tools: [jira_create_issue] }
  - id: no-pages-in-hr
    effect: deny
    reason: The HR space is edited by HR.
    match: { tools: [conf_create_page], args: { spaceKey: [HR] } }
  - id: page-edits-need-approval
    effect: approval_required
    match: { vendors: [confluence], methods: [PUT], paths: ["/wiki/api/v2/pages/*"] }
  - id: the-rest
    effect: allow
    match: { vendors: [jira, confluence] }
`;

// The wire path: the official SDK client spawns dist/cli.js (npm run build) and talks JSON-RPC over stdio.
describe('Jira and Confluence typed tools over stdio, under a policy with approvals', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let session: StdioSession;
  let cli: { cwd: string; env: Record<string, string> };

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  const decisionOf = (result: CallToolResult): Decision => result._meta!.decision as Decision;

  before(async () => {
    mock = await MockUpstream.start();
    const cwd = mkdtempSync(join(tmpdir(), 'atlassian-typed-stdio-'));
    writeFileSync(join(cwd, 'policy.yaml'), POLICY);
    const env = {
      ...ACCOUNT,
      JIRA_BASE_URL: mock.url,
      JIRA_DEPLOYMENT: 'cloud',
      CONFLUENCE_BASE_URL: mock.url,
      CONFLUENCE_DEPLOYMENT: 'cloud',
      MCP_STRUCTURED_OUTPUT: 'true',
      // The tools' mechanics under a policy; their labels and fences: test/plugins/provenance/atlassian-labels.test.ts.
      MCP_FENCE: 'false',
      MCP_POLICY_FILE: join(cwd, 'policy.yaml'),
      MCP_STORE_URL: `sqlite://${join(cwd, 'store.db')}`,
    };
    cli = { cwd, env };
    session = await connectStdio({ cwd, env });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('lists the typed tools with titles, write annotations and output schemas', async () => {
    const tools = new Map((await session.client.listTools()).tools.map((t) => [t.name, t]));
    const writes = [
      'jira_create_issue',
      'jira_update_issue',
      'jira_transition_issue',
      'jira_add_comment',
      'conf_create_page',
      'conf_update_page',
      'conf_add_comment',
    ];
    for (const name of [...writes, 'jira_search', 'jira_get_issue', 'conf_search', 'conf_get_page']) {
      const tool = tools.get(name);
      expect(tool, name).not.to.equal(undefined);
      expect(tool!.outputSchema, name).to.have.property('type', 'object');
    }
    for (const name of writes) expect(tools.get(name)!.annotations, name).to.include({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
  });

  it('denies a jira_create_issue the policy forbids, naming the rule, and sends nothing', async () => {
    const result = await call('jira_create_issue', { projectKey: 'SEC', issueType: 'Bug', summary: 'Token in logs' });
    expect(result.isError).to.equal(true);
    expect(result._meta).to.deep.include({ code: 'policy_denied' });
    expect(decisionOf(result)).to.include({ effect: 'deny', ruleId: 'security-files-its-own', reason: 'Issues in SEC are filed by the security team.' });
    expect(mock.requests).to.have.length(0);
  });

  it('holds a jira_create_issue for approval; once granted (CLI, through an HTTP server on the shared store) it posts the ADF and answers with the key', async () => {
    const args = { projectKey: 'PLAT', issueType: 'Bug', summary: 'Checkout 502', description: 'Seen by [@Mia Krystof](mention:5b10a2844c20165700ede21g).' };
    const held = await call('jira_create_issue', args);
    expect(held._meta, textOf(held)).to.deep.include({ code: 'approval_required' });
    const { approvalId, ruleId } = decisionOf(held);
    expect(ruleId).to.equal('new-issues-need-approval');
    expect(mock.requests).to.have.length(0);

    const list = await runCli(['approvals', 'list', '--json'], cli);
    expect(list.code, list.stderr).to.equal(0);
    expect((JSON.parse(list.stdout) as Array<{ id: string; request: unknown }>).find((a) => a.id === approvalId)).to.deep.include({
      request: { method: 'POST', path: '/rest/api/3/issue' },
    });
    // Over stdio, the approver decides through the same configuration served over HTTP on the same store.
    const grant = await grantThroughServer(cli, approvalId!);
    expect(grant.code, grant.stderr).to.equal(0);

    mock.on('POST', '/rest/api/3/issue', jsonReply(payload('jira/created-issue.json'), 201));
    const ran = await call('jira_create_issue', args);
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    expect(ran.structuredContent).to.deep.equal({ data: { key: 'PLAT-1427', id: '10240', url: `${mock.url}/browse/PLAT-1427` } });
    expect(JSON.parse(mock.requests[0]!.body)).to.deep.include({
      fields: {
        project: { key: 'PLAT' },
        issuetype: { name: 'Bug' },
        summary: 'Checkout 502',
        description: {
          version: 1,
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Seen by ' },
                { type: 'mention', attrs: { id: '5b10a2844c20165700ede21g', text: '@Mia Krystof' } },
                { type: 'text', text: '.' },
              ],
            },
          ],
        },
      },
    });
  });

  it('denies conf_create_page in a space the policy keeps, and holds a page update by its PUT path', async () => {
    const denied = await call('conf_create_page', { spaceKey: 'HR', title: 'Salaries', body: 'x' });
    expect(decisionOf(denied)).to.include({ effect: 'deny', ruleId: 'no-pages-in-hr' });
    const held = await call('conf_update_page', { pageId: '163841', title: 'Runbook', body: 'New.', version: 7 });
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    expect(decisionOf(held).ruleId).to.equal('page-edits-need-approval');
    expect(mock.requests).to.have.length(0);
  });

  it('reads without approval: jira_search and conf_get_page with Markdown', async () => {
    mock.on('GET', '/rest/api/3/search/jql', jsonReply('{"issues":[{"key":"PLAT-1"}],"isLast":true}'));
    mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(payload('confluence/page.json')));
    mock.on('GET', '/wiki/api/v2/spaces/65538', jsonReply('{"id":"65538","key":"ENG","name":"Engineering","type":"global","status":"current"}'));
    expect((await call('jira_search', { jql: 'project = PLAT' })).structuredContent).to.deep.equal({
      data: { issues: [{ key: 'PLAT-1' }], isLast: true },
      nextCursor: null,
    });
    const page = await call('conf_get_page', { pageId: '163841', jq: 'body' });
    expect((page.structuredContent as { data: string }).data).to.match(/^## Rollback\n/);
    expect(session.stderr.join('\n')).not.to.contain(ACCOUNT.ATLASSIAN_API_TOKEN);
  });
});
