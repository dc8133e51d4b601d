import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { AuditRecord } from '../../plugins/policy/audit/audit-record.js';
import type { Decision } from '../../plugins/policy/engine/policy-engine.js';
import { cliWriter } from '../../server/cli/cli-audit-chain.js';
import { PEOPLE, startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../support/enterprise-fixture.js';
import { runCli } from '../support/run-cli.js';
import { textOf } from '../support/test-kernel.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'whsec-cli-8e21c4aa';
const PIPELINE = '/api/v2/project/gh/acme/app/pipeline';

function approvalIdOf(result: CallToolResult): string {
  const decision = result._meta?.decision as Decision | undefined;
  if (decision?.approvalId === undefined) throw new Error(`not held: ${JSON.stringify(result)}`);
  return decision.approvalId;
}

describe('mcp-devtools approvals on a shared SQLite store (dist/cli.js)', function () {
  this.timeout(60_000);
  let ent: EnterpriseKernel;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const audit = tempFile('audit.jsonl', '');

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET);
    const store = `sqlite://${join(dirname(audit), 'store.db')}`;
    env = {
      MCP_STORE_URL: store,
      MCP_AUDIT_LOG: audit,
      MCP_APPROVAL_WEBHOOK_URL: receiver.url,
      MCP_APPROVAL_WEBHOOK_SECRET: SECRET,
      MCP_EGRESS_ALLOW: receiver.egressAllow,
    };
    ent = await startEnterpriseKernel({ env });
    ent.circleci.on('POST', PIPELINE, { status: 201, body: { id: 'p-9', number: 9, state: 'pending' } });
  });
  after(async () => {
    await ent?.close();
    await receiver?.close();
  });

  it('shows what a console card shows: the argument values, the identity that will act, the policy version', async () => {
    const id = approvalIdOf(await ent.kernel.call('circleci_post', { path: PIPELINE, body: { branch: 'main', token: 'pasted' } }, PEOPLE.rene));
    const shown = await runCli(['approvals', 'show', id], { env });
    expect(shown.code, shown.stderr).to.equal(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).to.match(new RegExp(`^${id}  pending  until \\d{4}-`));
    expect(lines.slice(1)).to.include.members([
      `  rene [developers, release-engineers] called circleci_post POST ${PIPELINE}`,
      `  acts as circleci-deployer (circleci) at ${new URL(ent.circleci.url).host}, environment production`,
      '  rule deletes-need-approval: Deletes and pipeline triggers are reviewed by an approver first.',
      '        "branch": "main",',
      '        "token": "[REDACTED]"',
      '  redacted: body.token',
    ]);
    expect(lines.find((l) => l.startsWith('  policy '))).to.match(/^ {2}policy sha256:[0-9a-f]{16}, asked at /);
    const listed = await runCli(['approvals', 'list'], { env });
    expect(listed.stdout).to.include(`  acts as circleci-deployer (circleci)`).and.to.include('"branch": "main"');
  });

  it('grants after a confirmation, with a reason that the caller, the audit log and the webhook receiver get', async () => {
    const id = approvalIdOf(await ent.kernel.call('circleci_post', { path: PIPELINE, body: { branch: 'release/5.0' } }, PEOPLE.rene));
    const no = await runCli(['approvals', 'grant', id, '--by', 'olga'], { env, stdin: 'n\n' });
    expect(no.code).to.equal(1);
    expect(no.stderr).to.include(`Grant ${id}? [y/N] `).and.to.include('Nothing was decided');
    const yes = await runCli(['approvals', 'grant', id, '--by', 'olga', '--reason', 'Release 5.0 signed off.'], { env, stdin: 'yes\n' });
    expect(yes.code, yes.stderr).to.equal(0);
    // The command waited for the event to be delivered before it exited.
    expect(receiver.events.find((e) => e.id === `${id}.granted`)?.decision).to.deep.include({ by: 'olga', reason: 'Release 5.0 signed off.' });
    const ran = await ent.kernel.call('circleci_post', { path: PIPELINE, body: { branch: 'release/5.0' } }, PEOPLE.rene);
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    expect(ran._meta!['mcp-devtools/approval']).to.include({ by: 'olga', reason: 'Release 5.0 signed off.' });
    const chain = readFileSync(`${audit}.${cliWriter()}`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    expect(chain.find((r) => r.approval?.id === id)).to.deep.include({ principal: { subject: 'olga', groups: [], via: 'cli' } });
    expect(chain.find((r) => r.approval?.id === id)!.approval).to.include({ status: 'granted', reason: 'Release 5.0 signed off.' });
    expect(chain.find((r) => r.notification?.eventId === `${id}.granted`)!.notification).to.include({ delivered: true, status: 200, attempt: 1 });
    const verified = await runCli(['audit', 'verify', audit], { env });
    expect(verified.code, verified.stdout + verified.stderr).to.equal(0);
  });

  it("needs a reason to reject, and rejects all of one caller's held calls with --subject", async () => {
    const ids: string[] = [];
    for (const branch of ['a', 'b']) ids.push(approvalIdOf(await ent.kernel.call('circleci_post', { path: PIPELINE, body: { branch } }, PEOPLE.rene)));
    const bare = await runCli(['approvals', 'reject', ids[0]!, '--yes'], { env });
    expect(bare.code).to.equal(1);
    expect(bare.stderr).to.include("required option '--reason <text>' not specified");
    const blank = await runCli(['approvals', 'reject', ids[0]!, '--yes', '--reason', ' '], { env });
    expect(blank.stderr).to.include('Say why you reject the call: the reason is told to the caller.');
    const all = await runCli(['approvals', 'reject', '--subject', 'rene', '--reason', 'Runaway agent.', '--yes', '--by', 'olga'], { env });
    expect(all.code, all.stderr).to.equal(0);
    // Both branches, and the one held in the first test (never decided).
    expect(all.stdout.trim().split('\n')).to.include.members(ids.map((id) => `${id} rejected`));
    for (const branch of ['a', 'b'])
      expect(textOf(await ent.kernel.call('circleci_post', { path: PIPELINE, body: { branch } }, PEOPLE.rene))).to.include('for this call: Runaway agent.');
  });
});
