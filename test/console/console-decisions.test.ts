import { expect } from 'chai';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { ConsoleDeployment, heldApproval, textOf } from './support/console-deployment.js';

const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });
const SECRET = 'whsec-console-3b9f1d27';

/** The rows of the decided tab's table. */
function decidedRows(page: string): string[] {
  return page.match(/<tr id="apr-[0-9a-f]{24}">.*?<\/tr>/g) ?? [];
}

describe('deciding in the console: confirmation, reasons, history, bulk rejection (built server, SQLite)', function () {
  this.timeout(90_000);
  let d: ConsoleDeployment;
  let receiver: WebhookReceiver;
  let olga: ConsoleClient;
  let dave: ConsoleClient;

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET);
    d = await ConsoleDeployment.start({
      store: 'sqlite',
      env: { MCP_APPROVAL_WEBHOOK_URL: receiver.url, MCP_APPROVAL_WEBHOOK_SECRET: SECRET, MCP_EGRESS_ALLOW: receiver.egressAllow },
    });
    olga = await ConsoleClient.signIn(d.base, d.tokens.olga);
    dave = await ConsoleClient.signIn(d.base, d.tokens.dave);
  });
  after(async () => {
    await d?.close();
    await receiver?.close();
  });

  it("tells the caller of a held call where an approver decides it: the console's page of the approval", async () => {
    const result = await d.call('alice', 'jira_delete', issue('PLAT-59'));
    const id = heldApproval(result);
    expect(textOf(result)).to.contain(
      `Ask an approver to grant it in the console at ${d.base}/console/approvals/${id} (or with mcp-devtools approvals grant ${id}), then retry the same call`,
    );
  });

  it("links each webhook event to the approval's page, which a signed-out approver reaches after signing in", async () => {
    const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-60')));
    await receiver.waitFor('the held event', (r) => r.events.some((e) => e.id === `${id}.held`));
    const url = receiver.events.find((e) => e.id === `${id}.held`)!.approval.url!;
    expect(url).to.equal(`${d.base}/console/approvals/${id}`);
    const fresh = new ConsoleClient(d.base);
    const away = await fresh.get(new URL(url).pathname);
    expect([away.status, away.headers.get('location')]).to.deep.equal([303, '/console/signin']);
    const signedIn = await fresh.submitToken(d.tokens.olga);
    expect(signedIn.headers.get('location')).to.equal(`/console/approvals/${id}`);
    const page = (await fresh.get(`/console/approvals/${id}`)).text;
    expect(page).to.include('<h1>Held for approval</h1>').and.to.include(`<article class="approval" id="${id}"`);
    expect(page).to.include('<code class="value">&quot;/rest/api/3/issue/PLAT-60&quot;</code>');
    expect(page).to.include('<strong>jira-bot</strong> <span class="environment env-production">production</span>');
  });

  it('never sends a signed-in approver to another site, whatever the return cookie says', async () => {
    const client = new ConsoleClient(d.base).withCookie('mcp_console_next', encodeURIComponent('//evil.example/console'));
    expect((await client.submitToken(d.tokens.olga)).headers.get('location')).to.equal('/console');
  });

  it('asks for confirmation: a grant is made only from the confirmation page, with an optional reason', async () => {
    const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-61')));
    const confirm = await olga.get(`/console/approvals/${id}/grant`);
    expect(confirm.status).to.equal(200);
    expect(confirm.text).to.include('<h1>Grant this call?</h1>');
    expect(confirm.text).to.include(`<form method="post" action="/console/approvals/${id}/grant" class="confirm grant">`);
    expect(confirm.text).to.include('<input type="hidden" name="confirmed" value="yes">');
    // A post without the confirmation decides nothing: it shows the confirmation page, the reason kept.
    const unconfirmed = await olga.post(`/console/approvals/${id}/grant`, { reason: 'typed first' }, { csrf: csrfOf(confirm.text) });
    expect(unconfirmed.status).to.equal(200);
    expect(unconfirmed.text).to.include('<h1>Grant this call?</h1>').and.to.include('>typed first</textarea>');
    expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-61')))).to.equal(id);
    const granted = await olga.post(
      `/console/approvals/${id}/grant`,
      { reason: 'PLAT-61 duplicates PLAT-60.', confirmed: 'yes' },
      { csrf: csrfOf(confirm.text) },
    );
    expect(granted.status).to.equal(303);
    const ran = await d.call('alice', 'jira_delete', issue('PLAT-61'));
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    expect(ran._meta!['mcp-devtools/approval']).to.include({ id, status: 'granted', by: 'olga', reason: 'PLAT-61 duplicates PLAT-60.' });
    expect((ran.content.at(-1) as { text: string }).text).to.match(new RegExp(`^Ran on approval ${id}, granted by olga at .*: PLAT-61 duplicates PLAT-60\\.$`));
    await receiver.waitFor('the grant event', (r) => r.events.some((e) => e.id === `${id}.granted`));
    expect(receiver.events.find((e) => e.id === `${id}.granted`)!.decision).to.include({ by: 'olga', reason: 'PLAT-61 duplicates PLAT-60.' });
  });

  it('requires a reason to reject, on the confirmation page and on the server', async () => {
    const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-62')));
    const confirm = (await olga.get(`/console/approvals/${id}/reject`)).text;
    expect(confirm).to.include('<h1>Reject this call?</h1>');
    expect(confirm).to.match(/<textarea name="reason" rows="3" maxlength="500" required/);
    const blank = await olga.post(`/console/approvals/${id}/reject`, { reason: ' ', confirmed: 'yes' }, { csrf: csrfOf(confirm) });
    expect(blank.status).to.equal(400);
    expect(blank.text).to.include('Say why you reject the call: the reason is told to the caller.').and.to.include('<h1>Reject this call?</h1>');
    const rejected = await olga.post(`/console/approvals/${id}/reject`, { reason: 'PLAT-62 is evidence.', confirmed: 'yes' }, { csrf: csrfOf(confirm) });
    expect(rejected.status).to.equal(303);
    const refused = await d.call('alice', 'jira_delete', issue('PLAT-62'));
    expect(textOf(refused)).to.include(`olga rejected approval ${id} for this call: PLAT-62 is evidence.`);
    expect(refused._meta!['mcp-devtools/approval']).to.include({ status: 'rejected', by: 'olga', reason: 'PLAT-62 is evidence.' });
  });

  it("rejects several of one caller's held calls at once, confirmed, with one reason", async () => {
    const ids: string[] = [];
    for (const key of ['PLAT-70', 'PLAT-71', 'PLAT-72']) ids.push(heldApproval(await d.call('alice', 'jira_delete', issue(key))));
    const pending = (await olga.get('/console')).text;
    // These three, and any of alice's still pending from the tests before.
    const count = Number(/href="\/console\/approvals\/bulk-reject\?subject=alice">Reject all (\d+) of alice's held calls…<\/a>/.exec(pending)![1]);
    expect(count).to.be.at.least(3);
    const confirm = (await olga.get('/console/approvals/bulk-reject?subject=alice')).text;
    for (const id of ids) expect(confirm).to.include(`<input type="checkbox" name="id" value="${id}" checked>`);
    expect(confirm.match(/type="checkbox"/g)).to.have.length(count);
    // A viewer cannot, even with the form.
    const refused = await dave.post(
      '/console/approvals/bulk-reject',
      { subject: 'alice', id: ids[0]!, reason: 'x', confirmed: 'yes' },
      { csrf: await dave.csrf() },
    );
    expect(refused.status).to.equal(403);
    const body = new URLSearchParams([
      ['subject', 'alice'],
      ['id', ids[0]!],
      ['id', ids[2]!],
      ['reason', 'A loop: stop.'],
      ['confirmed', 'yes'],
      ['csrf', csrfOf(confirm)],
    ]);
    const answer = await fetch(`${d.base}/console/approvals/bulk-reject`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: d.base, cookie: `mcp_console=${olga.session}` },
      body: body.toString(),
    });
    expect([answer.status, answer.headers.get('location')]).to.deep.equal([303, '/console?notice=rejected-several&n=2&subject=alice']);
    expect((await olga.get(answer.headers.get('location')!)).text).to.include('Rejected 2 of alice&#39;s held calls');
    for (const key of ['PLAT-70', 'PLAT-72']) expect(textOf(await d.call('alice', 'jira_delete', issue(key)))).to.include('for this call: A loop: stop.');
    expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-71')))).to.equal(ids[1]);
  });

  it('lists every decision on the decided tab, newest first, with who, when, why and what came of it', async () => {
    const page = (await dave.get('/console/decided')).text;
    const rows = decidedRows(page);
    expect(rows.length).to.equal(4);
    expect(rows[0]).to.include('<span class="status rejected">rejected</span> by <strong>olga</strong>').and.to.include('A loop: stop.');
    expect(rows[0]).to.include('1 retry refused');
    const granted = rows.find((r) => r.includes('PLAT-61'))!;
    expect(granted).to.include('<span class="status granted">granted</span> by <strong>olga</strong> <span class="via">via tokens</span>');
    expect(granted).to.include('<td data-label="Reason">PLAT-61 duplicates PLAT-60.</td>').and.to.include('<span class="outcome ok">ran</span>');
    expect(rows.find((r) => r.includes('PLAT-62'))).to.include('PLAT-62 is evidence.');
  });

  it('pages the decided tab', async () => {
    for (let i = 0; i < 18; i++) {
      const id = heldApproval(await d.call('rene', 'jira_delete', issue(`OPS-${i}`)));
      expect((await olga.post(`/console/approvals/${id}/reject`, { reason: `No ${i}.`, confirmed: 'yes' }, { csrf: await olga.csrf() })).status).to.equal(303);
    }
    const first = (await dave.get('/console/decided')).text;
    expect(decidedRows(first)).to.have.length(20);
    expect(first).to.include('<span>Page 1 of 2</span>').and.to.include('<a rel="next" href="/console/decided?page=2">Older</a>');
    expect(decidedRows(first)[0]).to.include('No 17.');
    const second = (await dave.get('/console/decided?page=2')).text;
    expect(decidedRows(second)).to.have.length(2);
    expect(second).to.include('<a rel="prev" href="/console/decided?page=1">Newer</a>');
  });

  it('shows a decided approval on its page, and says when there is none', async () => {
    const decided = (await dave.get('/console/decided')).text.match(/<tr id="(apr-[0-9a-f]{24})">/)![1]!;
    const page = await dave.get(`/console/approvals/${decided}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<h1>Decided</h1>');
    const none = await dave.get('/console/approvals/apr-000000000000000000000000');
    expect(none.status).to.equal(404);
    expect(none.text).to.include('Approval apr-000000000000000000000000 was not found');
  });
});
