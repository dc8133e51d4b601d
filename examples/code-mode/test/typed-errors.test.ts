import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { REFUSAL_META } from 'mcp-devtools/build/test/fixtures/plugins/fixture-faulty.js';
import { ApprovalRequiredError, errorRecordOf, IncompleteResultError, PolicyDeniedError, ToolCallError, toolErrorFromRecord } from '../src/harness/tool-errors.js';
import { failingJobsTask } from '../src/tasks/failing-jobs-task.js';
import { useHarness } from './support/harness-session.js';
import { FAULTY_PLUGIN_PATH } from './support/repository.js';

/** Prints what a program sees of the error a call throws: its class, by instanceof, and its fields. */
const CATCH_AND_DESCRIBE = `
} catch (e) {
  const kind = e instanceof PolicyDeniedError ? 'PolicyDeniedError' : e instanceof ApprovalRequiredError ? 'ApprovalRequiredError' : e instanceof IncompleteResultError ? 'IncompleteResultError' : e instanceof ToolCallError ? 'ToolCallError' : 'other';
  const decision = e instanceof PolicyDeniedError || e instanceof ApprovalRequiredError ? e.decision : undefined;
  const reason = e instanceof IncompleteResultError ? e.reason : undefined;
  if (e instanceof ToolCallError) return { kind, name: e.name, tool: e.tool, code: e.code, firstLine: e.text.split('\\n')[0], decision, reason, isError: e instanceof Error };
  return { kind };
}`;

describe('typed exceptions for tool errors', () => {
  describe('an error result (GitHub answers 404)', () => {
    const session = useHarness([failingJobsTask]);
    const call = "await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'no-such-repo' });";

    it('is a ToolCallError in the program, with the tool, the catalogue code and the server\'s text', async () => {
      const run = await session.harness.run(`try {\n${call}\nreturn 'no error';${CATCH_AND_DESCRIBE}`);
      expect(run.value).to.deep.include({ kind: 'ToolCallError', name: 'ToolCallError', tool: 'github_list_workflow_runs', code: 'upstream_http_error', isError: true });
      expect((run.value as { firstLine: string }).firstLine).to.match(/^Error: .*404/);
    });

    it('rejects the run with the harness\'s ToolCallError when the program does not catch it', async () => {
      const error = await session.harness.run(call).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ToolCallError);
      expect(error).to.not.be.instanceOf(PolicyDeniedError);
      expect(error).to.include({ tool: 'github_list_workflow_runs', code: 'upstream_http_error' });
      expect((error as ToolCallError).text).to.contain('HTTP Status: 404');
      expect((error as ToolCallError).message).to.match(/^github_list_workflow_runs: /);
    });
  });

  describe('a policy refusal and a value the server did not have (the faulty fixture plugin)', () => {
    const session = useHarness([], { plugins: [FAULTY_PLUGIN_PATH] });

    it('is a PolicyDeniedError in the program, carrying the decision of _meta', async () => {
      const run = await session.harness.run(`try {\nawait tools.faulty_refused();\nreturn 'no error';${CATCH_AND_DESCRIBE}`);
      expect(run.value).to.deep.include({ kind: 'PolicyDeniedError', name: 'PolicyDeniedError', tool: 'faulty_refused', code: 'policy_denied', decision: REFUSAL_META.decision });
    });

    it('rejects the run with the harness\'s PolicyDeniedError, _meta kept whole, when not caught', async () => {
      const error = await session.harness.run('await tools.faulty_refused();').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(PolicyDeniedError).and.instanceOf(ToolCallError);
      expect((error as PolicyDeniedError).decision).to.deep.equal(REFUSAL_META.decision);
      // _meta whole: the server's keys, and those the protocol adds from 2026-07-28 (who answered).
      expect((error as PolicyDeniedError).meta).to.deep.include(REFUSAL_META);
      expect(Object.keys((error as PolicyDeniedError).meta).sort()).to.deep.equal([...Object.keys(REFUSAL_META), 'io.modelcontextprotocol/serverInfo'].sort());
    });

    it('is an IncompleteResultError when the result is incomplete with no artifact to read', async () => {
      const run = await session.harness.run(`try {\nawait tools.faulty_no_value();\nreturn 'no error';${CATCH_AND_DESCRIBE}`);
      expect(run.value).to.deep.include({ kind: 'IncompleteResultError', tool: 'faulty_no_value', reason: 'unavailable' });
    });
  });

  describe('a real policy file: a refusal and an approval hold from the policy plugin', () => {
    const policyFile = join(mkdtempSync(join(tmpdir(), 'code-mode-policy-')), 'policy.yaml');
    writeFileSync(
      policyFile,
      [
        'version: 1',
        'rules:',
        '  - id: no-jira-reads',
        '    effect: deny',
        '    match: { tools: [jira_get] }',
        '  - id: writes-need-approval',
        '    effect: approval_required',
        '    match: { tools: [circleci_post] }',
        '  - id: everyone-reads',
        '    effect: allow',
        '    match: { readOnly: true }',
        '',
      ].join('\n'),
    );
    const session = useHarness([], { env: { MCP_POLICY_FILE: policyFile } });

    it('is a PolicyDeniedError carrying the policy\'s decision (rule id, reason, policy version)', async () => {
      const run = await session.harness.run(`try {\nawait tools.jira_get({ path: '/rest/api/3/myself' });\nreturn 'no error';${CATCH_AND_DESCRIBE}`);
      const value = run.value as { kind: string; code: string; decision: Record<string, unknown> };
      expect(value).to.deep.include({ kind: 'PolicyDeniedError', code: 'policy_denied' });
      expect(value.decision).to.include({ effect: 'deny', ruleId: 'no-jira-reads' });
      expect(value.decision.policyVersion).to.be.a('string').and.not.equal('');
      expect(session.world.mock.requests).to.have.length(0);
    });

    it('is an ApprovalRequiredError with the approval id and its expiry, and nothing is sent upstream', async () => {
      const run = await session.harness.run(`try {\nawait tools.circleci_post({ path: '/project/gh/acme/api/pipeline', body: {} });\nreturn 'no error';${CATCH_AND_DESCRIBE}`);
      const value = run.value as { kind: string; code: string; decision: Record<string, unknown> };
      expect(value).to.deep.include({ kind: 'ApprovalRequiredError', code: 'approval_required' });
      expect(value.decision).to.include({ effect: 'approval_required', ruleId: 'writes-need-approval' });
      expect(value.decision.approvalId).to.be.a('string').and.not.equal('');
      expect(Date.parse(String(value.decision.expiresAt))).to.be.greaterThan(Date.now());
      expect(session.world.mock.requests).to.have.length(0);
    });
  });

  it('keeps a plain error result a plain ToolCallError, with the code of its text', () => {
    const result: CallToolResult = { isError: true, content: [{ type: 'text', text: 'Error: Rate limited.\nCode: upstream_rate_limited\nRetry After: 30 seconds' }] };
    const error = toolErrorFromRecord(errorRecordOf('jira_get', result));
    expect(error.constructor).to.equal(ToolCallError);
    expect(error).to.include({ code: 'upstream_rate_limited', message: 'jira_get: Rate limited.' });
  });
});
