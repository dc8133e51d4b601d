import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { AuditRecord } from '../../plugins/policy/audit/audit-record.js';
import { findChains } from '../../plugins/policy/audit/audit-writers.js';
import { canary } from '../support/canaries.js';
import { codeBlocks, commandLines, readDoc, section, shellWords } from '../support/markdown.js';
import { runCli } from '../support/run-cli.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { ConsoleClient } from '../console/support/console-client.js';
import { ConsoleDeployment, heldApproval, textOf } from '../console/support/console-deployment.js';

const SECRET = 'whsec-cli-8e21c4aa';
const PIPELINE = '/api/v2/project/gh/acme/app/pipeline';
const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });

/**
 * `mcp-devtools approvals` against a deployment of two replicas of the built server on one SQLite store, with
 * bearer tokens, an audit log whose chains the replicas share a volume for, and a webhook receiver: reading
 * from the store, deciding through a server as the approver whose own token the CLI sends.
 */
describe('mcp-devtools approvals: reading the store, deciding through the server as oneself (dist/cli.js, two replicas)', function () {
  this.timeout(120_000);
  const admin = canary('admin-');
  const scrape = canary('metrics-');
  let d: ConsoleDeployment;
  let receiver: WebhookReceiver;
  /** The CLI's environment: the store (to read), olga's own token (to decide). */
  let cli: Record<string, string>;

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET);
    d = await ConsoleDeployment.start({
      store: 'sqlite',
      replica: true,
      env: {
        MCP_APPROVAL_WEBHOOK_URL: receiver.url,
        MCP_APPROVAL_WEBHOOK_SECRET: SECRET,
        MCP_EGRESS_ALLOW: receiver.egressAllow,
        MCP_ADMIN_TOKEN: admin,
        MCP_METRICS_TOKEN: scrape,
      },
    });
    d.circleci.on('POST', PIPELINE, { status: 201, body: { id: 'p-9', number: 9, state: 'pending' } });
    cli = { MCP_STORE_URL: d.env.MCP_STORE_URL!, MCP_APPROVER_TOKEN: d.tokens.olga };
  });
  after(async () => {
    await d?.close();
    await receiver?.close();
  });

  /** Every audit record of a decision on `id`, from every chain of the log (each replica writes its own). */
  const decisionsOf = async (id: string): Promise<AuditRecord[]> => {
    const records: AuditRecord[] = [];
    for (const chain of await findChains(join(d.dir, 'audit.jsonl')))
      for (const line of readFileSync(chain.path, 'utf8').split('\n').filter(Boolean)) records.push(JSON.parse(line) as AuditRecord);
    return records.filter((r) => r.approval?.id === id);
  };
  /** Every webhook POST the receiver accepted for this event id, repeats included. */
  const deliveries = (eventId: string): number => receiver.posts.filter((p) => p.status < 300 && (JSON.parse(p.body) as { id: string }).id === eventId).length;
  const verified = async (): Promise<void> => {
    const run = await runCli(['audit', 'verify', join(d.dir, 'audit.jsonl')]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
  };
  const post = (replica: number, path: string, token: string, body?: unknown): Promise<Response> =>
    fetch(`${d.baseOf(replica)}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('shows from the store, without a token, what a console card shows', async () => {
    const id = heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'main', token: 'pasted' } }));
    const shown = await runCli(['approvals', 'show', id], { env: { MCP_STORE_URL: d.env.MCP_STORE_URL! } });
    expect(shown.code, shown.stderr).to.equal(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).to.match(new RegExp(`^${id}  pending  until \\d{4}-`));
    expect(lines.slice(1)).to.include.members([
      `  rene [developers, release-engineers] called circleci_post POST ${PIPELINE}`,
      `  acts as circleci-deployer (circleci) at ${new URL(d.circleci.url).host}, environment production`,
      '  rule deletes-need-approval: Deletes and pipeline triggers are reviewed by an approver first.',
      '        "branch": "main",',
      '        "token": "[REDACTED]"',
      '  redacted: body.token',
    ]);
    const listed = await runCli(['approvals', 'list'], { env: { MCP_STORE_URL: d.env.MCP_STORE_URL! } });
    expect(listed.stdout).to.include(`  acts as circleci-deployer (circleci)`).and.to.include('"branch": "main"');
  });

  it("grants as olga, the approver whose token it sends: once in the audit (which verifies) and once at the receiver, under olga's name", async () => {
    const id = heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'release/5.0' } }));
    const no = await runCli(['approvals', 'grant', id, '--server', d.baseOf(0)], { env: cli, stdin: 'n\n' });
    expect(no.code).to.equal(1);
    expect(no.stderr).to.include(`Grant ${id}? [y/N] `).and.to.include('Nothing was decided');
    const yes = await runCli(['approvals', 'grant', id, '--server', d.baseOf(0), '--reason', 'Release 5.0 signed off.'], { env: cli, stdin: 'yes\n' });
    expect(yes.code, yes.stderr).to.equal(0);
    expect(yes.stdout).to.match(new RegExp(`^${id} granted by olga; `));
    const ran = await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'release/5.0' } });
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    expect(ran._meta!['mcp-devtools/approval']).to.include({ by: 'olga', reason: 'Release 5.0 signed off.' });
    await receiver.waitFor('the granted event', () => deliveries(`${id}.granted`) > 0);
    expect(receiver.events.find((e) => e.id === `${id}.granted`)?.decision).to.deep.include({ by: 'olga', reason: 'Release 5.0 signed off.' });
    const audited = await decisionsOf(id);
    expect(audited.map((r) => [r.principal, r.approval!.status, r.approval!.requestedBy, r.approval!.reason])).to.deep.equal([
      [{ subject: 'olga', groups: ['approvers', 'developers'], via: 'tokens' }, 'granted', 'rene', 'Release 5.0 signed off.'],
    ]);
    expect(deliveries(`${id}.granted`)).to.equal(1);
    await verified();
  });

  it("rejects through the admin endpoint with olga's own token: once in the audit and once at the receiver, under olga's name", async () => {
    const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-50')));
    const answer = await post(1, `/admin/approvals/${id}/reject`, d.tokens.olga, { reason: 'PLAT-50 holds the audit trail.' });
    expect(answer.status).to.equal(200);
    expect(((await answer.json()) as { approval: object }).approval).to.include({ status: 'rejected', decidedBy: 'olga' });
    const refused = await d.call('alice', 'jira_delete', issue('PLAT-50'));
    expect(textOf(refused)).to.include(`olga rejected approval ${id} for this call: PLAT-50 holds the audit trail.`);
    await receiver.waitFor('the rejected event', () => deliveries(`${id}.rejected`) > 0);
    expect(receiver.events.find((e) => e.id === `${id}.rejected`)?.decision).to.deep.include({ by: 'olga' });
    expect((await decisionsOf(id)).map((r) => [r.principal.subject, r.approval!.status])).to.deep.equal([['olga', 'rejected']]);
    expect(deliveries(`${id}.rejected`)).to.equal(1);
    await verified();
  });

  it('decides once when the CLI and the admin endpoint race on two replicas: one audit record, one event', async () => {
    const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-51')));
    const [byCli, byEndpoint] = await Promise.all([
      runCli(['approvals', 'grant', id, '--server', d.baseOf(0), '--yes'], { env: cli }),
      post(1, `/admin/approvals/${id}/reject`, d.tokens.olga, { reason: 'Not this one.' }),
    ]);
    const outcomes = [byCli.code === 0 ? 'decided' : byCli.stderr, byEndpoint.status === 200 ? 'decided' : String(byEndpoint.status)];
    expect(
      outcomes.filter((o) => o === 'decided'),
      JSON.stringify(outcomes),
    ).to.have.length(1);
    expect(outcomes.find((o) => o !== 'decided')).to.match(/409|already decided/);
    await receiver.waitFor('the decision event', () => deliveries(`${id}.granted`) + deliveries(`${id}.rejected`) > 0);
    expect(await decisionsOf(id)).to.have.length(1);
    expect(deliveries(`${id}.granted`) + deliveries(`${id}.rejected`)).to.equal(1);
    await verified();
  });

  it('refuses olga her own call on every path (CLI, admin endpoint, console): the call stays held', async () => {
    const id = heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-52')));
    const own = 'olga asked for this call, so another approver must decide it.';
    const byCli = await runCli(['approvals', 'grant', id, '--server', d.baseOf(0), '--yes'], { env: cli });
    expect([byCli.code, byCli.stderr]).to.deep.equal([1, `mcp-devtools: ${d.baseOf(0)} answered 403: ${own}\n`]);
    const byEndpoint = await post(1, `/admin/approvals/${id}/grant`, d.tokens.olga);
    expect([byEndpoint.status, ((await byEndpoint.json()) as { error: string }).error]).to.deep.equal([403, own]);
    const olga = await ConsoleClient.signIn(d.base, d.tokens.olga);
    const inConsole = await olga.post(`/console/approvals/${id}/grant`, { confirmed: 'yes' }, { csrf: await olga.csrf() });
    expect(inConsole.status).to.equal(403);
    expect(inConsole.text).to.include(own);
    expect(heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-52')))).to.equal(id);
    expect(d.jira.requests.filter((r) => r.method === 'DELETE' && r.path.endsWith('PLAT-52'))).to.have.length(0);
    expect(await decisionsOf(id)).to.deep.equal([]);
  });

  it('refuses a caller who is no approver, and decides nothing with MCP_ADMIN_TOKEN or the scrape token', async () => {
    const id = heldApproval(await d.call('rene', 'jira_delete', issue('PLAT-53')));
    const asAlice = await runCli(['approvals', 'grant', id, '--server', d.baseOf(0), '--yes'], { env: { MCP_APPROVER_TOKEN: d.tokens.alice } });
    expect(asAlice.stderr).to.equal(`mcp-devtools: ${d.baseOf(0)} answered 403: Only members of approvers may grant or reject calls; alice is not.\n`);
    const asScraper = await runCli(['approvals', 'grant', id, '--server', d.baseOf(0), '--yes'], { env: { MCP_APPROVER_TOKEN: scrape } });
    expect(asScraper.stderr).to.equal(
      `mcp-devtools: ${d.baseOf(0)} answered 403: This is MCP_METRICS_TOKEN, which scrapes /metrics and nothing else: approvals are read with MCP_ADMIN_TOKEN and decided with an approver's own token.\n`,
    );
    const asAdmin = await post(0, `/admin/approvals/${id}/grant`, admin);
    expect(asAdmin.status).to.equal(403);
    expect(((await asAdmin.json()) as { error: string }).error).to.match(/^MCP_ADMIN_TOKEN reads approvals but never decides them/);
    // Each token does its own job: the scrape token scrapes, and it alone.
    const metrics = `${d.base}/metrics`;
    expect((await fetch(metrics, { headers: { authorization: `Bearer ${scrape}` } })).status).to.equal(200);
    for (const other of [admin, d.tokens.olga]) expect((await fetch(metrics, { headers: { authorization: `Bearer ${other}` } })).status).to.equal(401);
    expect((await runCli(['approvals', 'show', id], { env: { MCP_STORE_URL: d.env.MCP_STORE_URL! } })).stdout).to.match(new RegExp(`^${id}  pending`));
    expect(await decisionsOf(id)).to.deep.equal([]);
  });

  it("runs docs/policy.md's approvals commands as written, with a real approval and this server in place of the example ones", async () => {
    const shown = codeBlocks(section(readDoc('docs/policy.md'), 'Deciding'))
      .filter((b) => b.lang === 'sh')
      .flatMap((b) => commandLines(b.code).map((l) => shellWords(l.command)));
    expect(shown.map((words) => words.slice(0, 3).join(' '))).to.deep.equal([
      'mcp-devtools approvals list',
      'mcp-devtools approvals show',
      'mcp-devtools approvals grant',
      'mcp-devtools approvals reject',
      'mcp-devtools approvals reject',
    ]);
    const granted = heldApproval(await d.call('rene', 'jira_delete', issue('PLAT-60')));
    const rejected = heldApproval(await d.call('rene', 'jira_delete', issue('PLAT-61')));
    await d.call('alice', 'jira_delete', issue('PLAT-62'));
    // Each line's example id stands for the approval it decides; the second grant or rejection names another.
    const ids = [granted, granted, granted, rejected];
    for (const [i, words] of shown.entries()) {
      const args = words.slice(1).map((w) => (w.startsWith('apr-') ? ids[i]! : w === 'https://mcp.internal.acme.com' ? d.baseOf(i % 2) : w));
      const run = await runCli(args, { env: cli, stdin: 'y\n' });
      expect(run.code, `${args.join(' ')}\n${run.stderr}`).to.equal(0);
    }
    expect((await decisionsOf(granted)).map((r) => [r.principal.subject, r.approval!.status, r.approval!.reason])).to.deep.equal([
      ['olga', 'granted', 'Release 4.2 passed QA.'],
    ]);
    expect((await decisionsOf(rejected)).map((r) => [r.principal.subject, r.approval!.status])).to.deep.equal([['olga', 'rejected']]);
    expect((await d.call('alice', 'jira_delete', issue('PLAT-62')))._meta?.code).to.equal('policy_denied');
  });

  it("needs a reason to reject, and rejects all of one caller's held calls with --subject", async () => {
    const ids: string[] = [];
    for (const key of ['PLAT-54', 'PLAT-55']) ids.push(heldApproval(await d.call('alice', 'jira_delete', issue(key))));
    const bare = await runCli(['approvals', 'reject', ids[0]!, '--yes', '--server', d.baseOf(0)], { env: cli });
    expect(bare.code).to.equal(1);
    expect(bare.stderr).to.include("required option '--reason <text>' not specified");
    const blank = await runCli(['approvals', 'reject', ids[0]!, '--yes', '--reason', ' ', '--server', d.baseOf(0)], { env: cli });
    expect(blank.stderr).to.include('Say why you reject the call: the reason is told to the caller.');
    const all = await runCli(['approvals', 'reject', '--subject', 'alice', '--reason', 'Runaway agent.', '--yes', '--server', d.baseOf(1)], { env: cli });
    expect(all.code, all.stderr).to.equal(0);
    expect(all.stdout.trim().split('\n')).to.include.members(ids.map((id) => `${id} rejected`));
    for (const key of ['PLAT-54', 'PLAT-55']) expect(textOf(await d.call('alice', 'jira_delete', issue(key)))).to.include('for this call: Runaway agent.');
    for (const id of ids) expect((await decisionsOf(id)).map((r) => r.principal.subject)).to.deep.equal(['olga']);
    await verified();
  });
});

describe('mcp-devtools approvals with OIDC: the approver decides with their own access token (dist/cli.js)', function () {
  this.timeout(90_000);
  let d: ConsoleDeployment;
  before(async () => (d = await ConsoleDeployment.start({ store: 'sqlite', auth: 'oidc' })));
  after(() => d?.close());

  it("grants as the access token's subject, and refuses that subject their own call", async () => {
    const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-90')));
    const env = { MCP_APPROVER_TOKEN: d.tokens.olga };
    const grant = await runCli(['approvals', 'grant', id, '--server', d.base, '--yes'], { env });
    expect(grant.code, grant.stderr).to.equal(0);
    expect(grant.stdout).to.match(new RegExp(`^${id} granted by olga; `));
    expect((await d.call('alice', 'jira_delete', issue('PLAT-90'))).isError).to.equal(undefined);
    const own = heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-91')));
    const refused = await runCli(['approvals', 'grant', own, '--server', d.base, '--yes'], { env });
    expect([refused.code, refused.stderr]).to.deep.equal([
      1,
      `mcp-devtools: ${d.base} answered 403: olga asked for this call, so another approver must decide it.\n`,
    ]);
  });
});
