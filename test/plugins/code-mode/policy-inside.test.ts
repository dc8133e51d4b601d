import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import type { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { auditLines } from '../../support/audit-records.js';
import { APPROVERS, PEOPLE, startEnterpriseKernel, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { textOf } from '../../support/test-kernel.js';

const POLICY = `version: 1
rules:
  - id: code-mode-tools
    effect: allow
    match: { tools: [execute, search_tools, artifact_read] }
  - id: no-agent-writes-to-security-issues
    effect: deny
    reason: Security issues are handled outside agents.
    match: { vendors: [jira], readOnly: false, paths: ["/rest/api/3/issue/SEC-*"] }
  - id: deletes-need-approval
    effect: approval_required
    reason: Deletes are reviewed by an approver first.
    match: { tools: [jira_delete] }
  - id: jira-for-developers
    effect: allow
    match: { vendors: [jira], groups: [developers] }
`;

type CallRecord = { tool: string; ok: boolean; code?: string; decision: Record<string, unknown>; writes: boolean };
const callsOf = (result: CallToolResult): CallRecord[] => result._meta!['mcp-devtools/calls'] as CallRecord[];

describe('code mode: the policy holds inside a program', function () {
  this.timeout(60_000);
  let ent: EnterpriseKernel;
  let auditPath: string;

  before(async () => {
    auditPath = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-code-audit-')), 'audit.jsonl');
    ent = await startEnterpriseKernel({ policy: POLICY, env: { MCP_CODE_MODE: 'true', MCP_AUDIT_LOG: auditPath } });
  });
  after(() => ent.close());
  beforeEach(() => {
    ent.jira.reset();
    ent.jira.on('GET', '/rest/api/3/issue/:key', (req) => ({ body: { key: req.params.key, fields: { summary: 'A bug' } } }));
    ent.jira.on('PUT', '/rest/api/3/issue/:key', { status: 204 });
    ent.jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
  });

  it('throws a PolicyDeniedError the program catches, carrying the decision, and sends nothing', async () => {
    const result = await ent.kernel.call(
      'execute',
      {
        code: [
          'try {',
          "  await tools.jira_put({ path: '/rest/api/3/issue/SEC-9', body: { fields: { summary: 'x' } } });",
          '} catch (error) {',
          '  if (error instanceof PolicyDeniedError) console.log(error.decision.effect, error.decision.ruleId, error.decision.reason);',
          '}',
          "const issue = await tools.jira_get({ path: '/rest/api/3/issue/PLAT-1' });",
          'console.log((issue.data as { key: string }).key);',
        ].join('\n'),
      },
      PEOPLE.alice,
    );
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(textOf(result)).to.equal('deny no-agent-writes-to-security-issues Security issues are handled outside agents.\nPLAT-1');
    expect(ent.jira.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /rest/api/3/issue/PLAT-1']);
    const calls = callsOf(result);
    expect(calls.map((c) => [c.tool, c.ok, c.decision.effect, c.decision.ruleId ?? null])).to.deep.equal([
      ['jira_put', false, 'deny', 'no-agent-writes-to-security-issues'],
      ['jira_get', true, 'allow', null],
    ]);
  });

  it('audits every inner call with the request id of the execute call', async () => {
    const before = auditLines(auditPath).length;
    const code =
      "await tools.jira_get({ path: '/rest/api/3/issue/PLAT-2' });\ntry { await tools.jira_put({ path: '/rest/api/3/issue/SEC-1', body: {} }); } catch {}";
    await ent.kernel.kernel.call('execute', { code }, PEOPLE.alice, { requestId: 'req-program-42' });
    const records = (auditLines(auditPath).slice(before) as unknown as Array<{ tool: string; requestId?: string; principal: { subject: string } }>).map((r) => [
      r.tool,
      r.requestId,
      r.principal.subject,
    ]);
    expect(records).to.deep.equal([
      ['jira_get', 'req-program-42', 'alice'],
      ['jira_put', 'req-program-42', 'alice'],
      ['execute', 'req-program-42', 'alice'],
    ]);
  });

  it("decides each inner call for the caller: another principal's program is refused what alice's may do", async () => {
    const result = await ent.kernel.call('execute', { code: "await tools.jira_get({ path: '/rest/api/3/issue/PLAT-1' });" }, PEOPLE.dave);
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.match(/^Error: The program threw an error it did not catch: PolicyDeniedError: The policy refused jira_get/);
    expect(callsOf(result)[0]).to.deep.include({ tool: 'jira_get', ok: false, code: 'policy_denied' });
    expect(ent.jira.requests).to.have.length(0);
  });

  it('ends the program at a held call with the approval id and the writes made before it; after the grant it runs', async () => {
    const code = [
      "await tools.jira_put({ path: '/rest/api/3/issue/PLAT-3', body: { fields: { labels: ['stale'] } } });",
      "await tools.jira_delete({ path: '/rest/api/3/issue/PLAT-3' });",
      "console.log('deleted');",
    ].join('\n');
    const held = await ent.kernel.call('execute', { code }, PEOPLE.alice);
    expect(held.isError).to.equal(true);
    const decision = held._meta!.decision as { effect: string; approvalId: string; ruleId: string };
    expect(decision).to.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
    expect(held._meta).to.deep.include({ code: 'approval_required', writesBefore: ['jira_put'] });
    expect(textOf(held)).to.include(`The program was stopped at jira_delete, which needs an approver's grant: approval ${decision.approvalId}`);
    expect(textOf(held)).to.include('Before it, it made these writes, which a run after the grant makes again: jira_put.');
    expect(textOf(held)).to.include('Code: approval_required');
    expect(ent.jira.requests.map((r) => r.method)).to.deep.equal(['PUT']);
    expect(callsOf(held).map((c) => [c.tool, c.decision.effect])).to.deep.equal([
      ['jira_put', 'allow'],
      ['jira_delete', 'approval_required'],
    ]);

    await ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals).grant(decision.approvalId, APPROVERS.olga);
    const rerun = await ent.kernel.call('execute', { code }, PEOPLE.alice);
    expect(textOf(rerun)).to.equal('deleted');
    expect(ent.jira.requests.map((r) => r.method)).to.deep.equal(['PUT', 'PUT', 'DELETE']);
  });

  it('refuses the execute call itself where no rule allows it', async () => {
    const strict = await startEnterpriseKernel({
      policy: 'version: 1\nrules:\n  - id: reads\n    effect: allow\n    match: { readOnly: true }\n',
      env: { MCP_CODE_MODE: 'true' },
    });
    try {
      const result = await strict.kernel.call('execute', { code: "console.log('ran');" }, LOCAL_PRINCIPAL);
      expect(textOf(result)).to.match(/^Error: The policy refused execute for local: .*no rule allows it/);
    } finally {
      await strict.close();
    }
  });
});

describe('code mode: read-only mode and excluded tools hold inside a program', function () {
  this.timeout(60_000);
  let ent: EnterpriseKernel;

  before(async () => {
    ent = await startEnterpriseKernel({ policy: null, env: { MCP_CODE_MODE: 'true', MCP_READ_ONLY: 'true', MCP_EXCLUDE_TOOLS: 'circleci_get' } });
  });
  after(() => ent.close());

  it('serves execute on a read-only server, and its programs see only the read tools that are not excluded', async () => {
    const index = textOf(await ent.kernel.call('search_tools', {}));
    expect(index).to.include('jira_get');
    expect(index).not.to.match(/jira_put|jira_post|jira_delete|circleci_post|circleci_get/);
    const typed = await ent.kernel.call('execute', { code: "await tools.jira_delete({ path: '/rest/api/3/issue/PLAT-1' });" });
    expect(textOf(typed)).to.match(/type error[\s\S]*line 1, column \d+: Property 'jira_delete' does not exist/);
    const excluded = await ent.kernel.call('execute', {
      code: "const names = Object.keys(tools);\nconsole.log(names.includes('circleci_get'), names.includes('jira_get'), typeof (tools as any).jira_delete);",
    });
    expect(textOf(excluded)).to.equal('false true undefined');
    expect(ent.jira.requests).to.have.length(0);
  });
});
