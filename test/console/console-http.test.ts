import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { AuditRecord } from '../../plugins/policy/audit/audit-record.js';
import { verifyAuditLog } from '../../plugins/policy/audit/verify-audit-log.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { ConsoleDeployment, docsPolicyRuleCount, heldApproval, textOf } from './support/console-deployment.js';

const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });
const PIPELINE = '/api/v2/project/gh/acme/app/pipeline';

/** The card of one approval on a console page, or undefined when the page does not show it. */
function cardOf(page: string, id: string): string | undefined {
  const at = page.indexOf(`<article class="approval" id="${id}"`);
  return at < 0 ? undefined : page.slice(at, page.indexOf('</article>', at));
}

describe('approvals console over HTTP (built server, bearer tokens, SQLite store)', function () {
  this.timeout(60_000);
  let d: ConsoleDeployment;
  let olga: ConsoleClient;
  let dave: ConsoleClient;

  before(async () => {
    d = await ConsoleDeployment.start({ store: 'sqlite' });
    olga = await ConsoleClient.signIn(d.base, d.tokens.olga);
    dave = await ConsoleClient.signIn(d.base, d.tokens.dave);
  });
  after(async () => d?.close());

  describe('signing in', () => {
    it('sets an HttpOnly, SameSite=Strict session cookie scoped to /console, not Secure over plain http', async () => {
      const client = new ConsoleClient(d.base);
      const answer = await client.submitToken(d.tokens.alice);
      expect(answer.status).to.equal(303);
      expect(answer.headers.get('location')).to.equal('/console');
      const session = answer.headers.getSetCookie().find((c) => c.startsWith('mcp_console='))!;
      expect(session).to.match(/^mcp_console=[A-Za-z0-9_-]{43}; Path=\/console; Max-Age=28800; HttpOnly; SameSite=Strict$/);
      expect((await client.get('/console')).text).to.include('<span class="subject">alice</span> <span class="role">viewer</span>');
    });

    it('marks cookies Secure behind an https proxy', async () => {
      const answer = await new ConsoleClient(d.base).get('/console/signin', { 'x-forwarded-proto': 'https' });
      expect(answer.headers.getSetCookie()[0]).to.match(/^mcp_console_signin=.*; HttpOnly; SameSite=Strict; Secure$/);
    });

    it('refuses a wrong token with no session, and serves pages under a strict content security policy', async () => {
      const client = new ConsoleClient(d.base);
      const answer = await client.submitToken(`${d.tokens.alice}x`);
      expect(answer.status).to.equal(401);
      expect(answer.text).to.include('That token is not recognised by this server.');
      expect(client.session).to.equal(undefined);
      expect(answer.headers.get('content-security-policy')).to.equal(
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect((await client.get('/console')).headers.get('location')).to.equal('/console/signin');
    });

    it('refuses a sign-in form posted without its CSRF token', async () => {
      const client = new ConsoleClient(d.base);
      await client.get('/console/signin');
      const answer = await client.post('/console/signin', { token: d.tokens.olga }, { csrf: null });
      expect(answer.status).to.equal(403);
      expect(client.session).to.equal(undefined);
    });
  });

  describe('pending approvals', () => {
    it('shows a held call: tool, vendor, method and path, caller, rule and reason, time left', async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', { ...issue('PLAT-7'), jq: 'key' }));
      const card = cardOf((await olga.get('/console')).text, id)!;
      expect(card).to.include('<code>jira_delete</code> <span class="vendor">jira</span>');
      expect(card).to.include('<span class="method">DELETE</span> <code>/rest/api/3/issue/PLAT-7</code>');
      expect(card).to.include('<strong>alice</strong> <span class="groups">developers</span> <span class="via">via tokens</span>');
      expect(card).to.include('rule <code>deletes-need-approval</code>: Deletes and pipeline triggers are reviewed by an approver first.');
      expect(card).to.match(/data-expires="[^"]+">1[45] min \d\d s left</);
      expect(card).to.include('<span class="key">path</span> <code class="value">&quot;/rest/api/3/issue/PLAT-7&quot;</code>');
      expect(card).to.include(`href="/console/approvals/${id}/grant"`);
      // The live list serves the same card.
      expect(cardOf((await olga.get('/console/approvals/live')).text, id)).to.equal(card);
    });

    it('shows the argument values (the branch a pipeline builds), the identity that will act and the policy version, escaped', async () => {
      const id = heldApproval(
        await d.call('rene', 'circleci_post', {
          path: PIPELINE,
          body: { branch: '<img src=x onerror=alert(1)>', parameters: { deploy_env: 'production', api_token: 'tok-pasted-by-the-agent-123' } },
        }),
      );
      const card = cardOf((await dave.get('/console')).text, id)!;
      expect(card).to.include(
        '<span class="key">body</span> <code class="value">{&quot;branch&quot;:&quot;&lt;img src=x onerror=alert(1)&gt;&quot;,&quot;parameters&quot;:{&quot;deploy_env&quot;:&quot;production&quot;,&quot;api_token&quot;:&quot;[REDACTED]&quot;}}</code>',
      );
      expect(card).to.include('Hidden from approvers: body.parameters.api_token');
      expect(card).to.include(
        `<dt>Acts as</dt><dd class="identity"><strong>circleci-deployer</strong> <span class="environment env-production">production</span> <span class="muted">circleci at ${new URL(d.circleci.url).host}</span></dd>`,
      );
      expect(card).to.match(/<dt>Policy<\/dt><dd><code class="policy-version">sha256:[0-9a-f]{16}<\/code><\/dd>/);
      expect(card).not.to.include('<img');
      expect(card).not.to.include('tok-pasted-by-the-agent-123');
    });
  });

  describe('deciding', () => {
    it('refuses forged grants (no CSRF token, a wrong one, a foreign Origin): the call stays held', async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-8')));
      const csrf = await olga.csrf();
      for (const forged of [{ csrf: null }, { csrf: `${csrf.slice(0, -2)}xx` }, { csrf, origin: 'http://attacker.example' }, { csrf, origin: 'null' }]) {
        const answer = await olga.post(`/console/approvals/${id}/grant`, {}, forged);
        expect(answer.status, JSON.stringify(forged)).to.equal(403);
        expect(answer.text).to.include('This form did not come from the console');
      }
      const retry = await d.call('alice', 'jira_delete', issue('PLAT-8'));
      expect(heldApproval(retry)).to.equal(id);
      expect(d.jira.requests.filter((r) => r.method === 'DELETE')).to.have.length(0);
    });

    it('shows a non-approver no buttons and refuses their grant, even with a valid CSRF token', async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-9')));
      const page = (await dave.get('/console')).text;
      expect(page).to.include('You can see what is waiting; members of approvers decide.');
      expect(cardOf(page, id)).not.to.include('class="actions"');
      const answer = await dave.post(`/console/approvals/${id}/grant`, {}, { csrf: await dave.csrf() });
      expect(answer.status).to.equal(403);
      expect(answer.text).to.include('Only members of approvers may grant or reject calls; dave is not.');
      expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-9')))).to.equal(id);
    });

    it('does not let an approver grant a call they made', async () => {
      const id = heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-10')));
      const card = cardOf((await olga.get('/console')).text, id)!;
      expect(card).to.include('olga asked for this call, so another approver must decide it.');
      expect(card).not.to.include('class="actions"');
      const answer = await olga.post(`/console/approvals/${id}/grant`, {}, { csrf: await olga.csrf() });
      expect(answer.status).to.equal(403);
      expect(answer.text).to.include('olga asked for this call, so another approver must decide it.');
      expect(heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-10')))).to.equal(id);
    });

    it("grants: the caller's retry runs once, a second retry is held again, and a second decision conflicts", async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-11')));
      const csrf = await olga.csrf();
      const answer = await olga.post(`/console/approvals/${id}/grant`, { confirmed: 'yes' }, { csrf });
      expect(answer.status).to.equal(303);
      expect(answer.headers.get('location')).to.equal(`/console?notice=granted&id=${id}`);
      const page = (await olga.get(answer.headers.get('location')!)).text;
      expect(page).to.include(`Granted ${id}: the caller&#39;s next identical call runs once.`);
      expect(cardOf(page, id)).to.equal(undefined);

      const ran = await d.call('alice', 'jira_delete', issue('PLAT-11'));
      expect(ran.isError).to.equal(undefined);
      expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-11')))).not.to.equal(id);
      expect(d.jira.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).to.deep.equal(['/rest/api/3/issue/PLAT-11']);
      const late = await olga.post(`/console/approvals/${id}/reject`, { reason: 'too late', confirmed: 'yes' }, { csrf });
      expect(late.status).to.equal(409);
      expect(late.text).to.include(`Approval ${id} was already decided: granted by olga, and the call it covers has run.`);
    });

    it("rejects only with a reason, which the caller's retry is told", async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-12')));
      const csrf = await olga.csrf();
      const blank = await olga.post(`/console/approvals/${id}/reject`, { reason: '   ', confirmed: 'yes' }, { csrf });
      expect(blank.status).to.equal(400);
      expect(blank.text).to.include('Say why you reject the call: the reason is told to the caller.');
      expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-12')))).to.equal(id);

      const answer = await olga.post(
        `/console/approvals/${id}/reject`,
        { reason: 'PLAT-12 is the release tracker; close it instead.', confirmed: 'yes' },
        { csrf },
      );
      expect(answer.status).to.equal(303);
      const refused = await d.call('alice', 'jira_delete', issue('PLAT-12'));
      expect(refused._meta?.code).to.equal('policy_denied');
      expect(textOf(refused)).to.include(`olga rejected approval ${id} for this call: PLAT-12 is the release tracker; close it instead.`);
      expect((await olga.post(`/console/approvals/${id}/grant`, { confirmed: 'yes' }, { csrf })).status).to.equal(409);
    });

    it('records each decision in the audit log with the approver, and the chain verifies', async () => {
      const records = readFileSync(join(d.dir, 'audit.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as AuditRecord);
      const decisions = records.filter((r) => r.approval !== undefined);
      expect(decisions.map((r) => [r.principal.subject, r.tool, r.approval!.status, r.approval!.requestedBy, r.approval!.reason])).to.deep.equal([
        ['olga', 'jira_delete', 'granted', 'alice', undefined],
        ['olga', 'jira_delete', 'rejected', 'alice', 'PLAT-12 is the release tracker; close it instead.'],
      ]);
      expect(decisions[0]!.decision).to.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
      expect(decisions[0]!.upstream).to.deep.include({ vendor: 'jira', credential: 'jira-bot' });
      expect(decisions[0]!.args).to.deep.equal({ path: 'string' });
      // The granted call itself names its approver too.
      const ran = records.find((r) => r.approval === undefined && r.outcome.status === 'ok' && r.decision?.approvalId === decisions[0]!.approval!.id)!;
      expect(ran.principal.subject).to.equal('alice');
      expect(ran.decision!.reason).to.match(/^Approved by olga \(approval apr-[0-9a-f]{24}\)/);
      const verified = await verifyAuditLog(join(d.dir, 'audit.jsonl'));
      expect(verified.problems).to.deep.equal([]);
    });
  });

  describe('recent activity and the policy', () => {
    it('lists audit records filtered by principal, tool and outcome, with the chain verified', async () => {
      const rejected = (await dave.get('/console/activity?outcome=rejected')).text;
      expect(rejected).to.match(/<strong>Audit chain verified<\/strong>: \d+ records in/);
      expect(rejected.match(/<tr><td data-label="#">/g)).to.have.length(1);
      expect(rejected).to.include('<span class="status rejected">rejected</span>');
      expect(rejected).to.include('for alice: PLAT-12 is the release tracker; close it instead.');
      const byOlga = (await dave.get('/console/activity?principal=olga&tool=jira_delete')).text;
      const rows = byOlga.match(/<tr><td data-label="#">.*?<\/tr>/g)!;
      expect(rows.length).to.be.greaterThan(2);
      for (const row of rows) expect(row).to.include('<td data-label="Principal">olga</td>').and.to.include('<code>jira_delete</code>');
      const held = (await dave.get('/console/activity?outcome=held&principal=alice')).text;
      for (const row of held.match(/<tr><td data-label="#">.*?<\/tr>/g)!) expect(row).to.include('<span class="outcome held">held</span>');
    });

    it('shows the policy in force and explains whether a call would be allowed', async () => {
      const page = (await dave.get('/console/policy')).text;
      expect(page).to.include('<code>deletes-need-approval</code>');
      expect(page).to.match(new RegExp(`version <code>sha256:[0-9a-f]{16}</code>, ${docsPolicyRuleCount()} rules`));
      const csrf = csrfOf(page);
      const fields = { tool: 'jira_delete', args: '{"path": "/rest/api/3/issue/PLAT-1"}', subject: 'carol', groups: 'contractors' };
      const denied = await dave.post('/console/policy/explain', fields, { csrf });
      expect(denied.status).to.equal(200);
      expect(denied.text).to.include('<strong>Denied</strong> by rule <code>contractors-read-only</code>: Contractors have read-only access.');
      const held = await dave.post('/console/policy/explain', { ...fields, subject: 'alice', groups: 'developers' }, { csrf });
      expect(held.text).to.include('<strong>Held for approval</strong> by rule <code>deletes-need-approval</code>');
      expect(held.text).to.include('jira_delete DELETE /rest/api/3/issue/PLAT-1 (writes) by alice [developers]');
      const bad = await dave.post('/console/policy/explain', { ...fields, args: '{path' }, { csrf });
      expect(bad.status).to.equal(400);
      expect(bad.text).to.include('The arguments must be a JSON object');
      expect((await dave.post('/console/policy/explain', fields, { csrf: null })).status).to.equal(403);
    });
  });

  it('signs out: the session is gone on the server, so the old cookie no longer works', async () => {
    const client = await ConsoleClient.signIn(d.base, d.tokens.alice);
    const cookie = client.session!;
    const answer = await client.post('/console/signout', {}, { csrf: await client.csrf() });
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal('/console/signin?notice=signed-out');
    const replayed = await new ConsoleClient(d.base).withCookie('mcp_console', cookie).get('/console');
    expect(replayed.status).to.equal(303);
    expect(replayed.headers.get('location')).to.equal('/console/signin');
  });
});
