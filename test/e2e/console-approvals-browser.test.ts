import type { Browser, Page } from 'playwright-core';
import { expect } from 'chai';
import { launchChromium, overflowsSideways, screenshot, VIEWPORTS } from '../console/support/browser.js';
import { ConsoleDeployment, heldApproval, textOf, type StoreKind } from '../console/support/console-deployment.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const PIPELINE = '/api/v2/project/gh/acme/app/pipeline';
const SECRET = 'whsec-browser-6c0e4b12';
const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });

for (const store of ['sqlite', 'redis'] as const satisfies readonly StoreKind[]) {
  // The SQLite run's screenshots are the ones docs/console.md shows.
  const docs = store === 'sqlite';

  describe(`an approver notified by a signed webhook decides in Chromium (${store} store)`, function () {
    this.timeout(120_000);
    let d: ConsoleDeployment;
    let receiver: WebhookReceiver;
    let browser: Browser;
    let page: Page;

    before(async () => {
      receiver = await WebhookReceiver.start(SECRET);
      d = await ConsoleDeployment.start({
        store,
        env: { MCP_APPROVAL_WEBHOOK_URL: receiver.url, MCP_APPROVAL_WEBHOOK_SECRET: SECRET, MCP_EGRESS_ALLOW: receiver.egressAllow },
      });
      browser = await launchChromium();
      page = await (await browser.newContext({ viewport: VIEWPORTS.laptop })).newPage();
    });
    after(async () => {
      await browser?.close();
      await d?.close();
      await receiver?.close();
    });

    it('opens the link of the held event, signs in, and sees the branch the pipeline will build and the identity that will act', async () => {
      const id = heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'main' } }));
      await receiver.waitFor('the held event', (r) => r.events.some((e) => e.id === `${id}.held`));
      const event = receiver.events.find((e) => e.id === `${id}.held`)!;
      expect(event.text).to.include(`\`circleci_post\` POST ${PIPELINE} as circleci-deployer (production)`);
      await page.goto(event.approval.url!);
      await page.fill('input[name=token]', d.tokens.olga);
      await page.click('form.signin button');
      await page.waitForURL(event.approval.url!);
      const card = page.locator(`#${id}`);
      expect(await card.locator('li[data-key=body] .value').textContent()).to.equal('{"branch":"main"}');
      expect(await card.locator('li[data-key=path] .value').textContent()).to.equal(`"${PIPELINE}"`);
      expect(await card.locator('.identity').textContent()).to.equal(`circleci-deployer production circleci at ${new URL(d.circleci.url).host}`);
      expect(await card.locator('.policy-version').textContent()).to.match(/^sha256:[0-9a-f]{16}$/);
      await screenshot(page, `${store}-approval-laptop`, docs);
    });

    it('grants after a confirmation step with a reason; the agent is told who and why, and the receiver is sent it', async () => {
      const id = heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'main' } }));
      await page.click(`#${id} a.grant`);
      await page.waitForURL(`${d.base}/console/approvals/${id}/grant`);
      expect(await page.textContent('h1')).to.equal('Grant this call?');
      expect(await page.textContent('.lead')).to.include('runs once, as circleci-deployer in production');
      // Nothing is decided by reaching the step: the call is still held.
      expect(heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'main' } }))).to.equal(id);
      await page.fill('form.confirm textarea[name=reason]', 'Release 4.2 passed QA; ship it.');
      await screenshot(page, `${store}-confirm-grant-laptop`, docs);
      await page.click('form.confirm button.grant');
      await page.waitForURL(/notice=granted/);
      const ran = await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'main' } });
      expect(ran.isError, textOf(ran)).to.equal(undefined);
      expect(ran._meta!['mcp-devtools/approval']).to.include({ id, status: 'granted', by: 'olga', reason: 'Release 4.2 passed QA; ship it.' });
      expect((ran.content.at(-1) as { text: string }).text)
        .to.include('granted by olga at')
        .and.to.include(': Release 4.2 passed QA; ship it.');
      await receiver.waitFor('the grant event', (r) => r.events.some((e) => e.id === `${id}.granted`));
      expect(receiver.events.find((e) => e.id === `${id}.granted`)!.decision).to.include({ by: 'olga', reason: 'Release 4.2 passed QA; ship it.' });
    });

    it('finds the decision in the decided tab: who, when, why, and that the call ran', async () => {
      await page.click('nav a[href="/console/decided"]');
      await page.waitForURL(`${d.base}/console/decided`);
      const row = page.locator('table.decided tbody tr').first();
      expect(await row.locator('td[data-label=Decision]').textContent()).to.equal('granted by olga via tokens');
      expect(await row.locator('td[data-label=Reason]').textContent()).to.equal('Release 4.2 passed QA; ship it.');
      expect(await row.locator('td[data-label=Outcome] .outcome').textContent()).to.equal('ran');
      expect(await row.locator('td[data-label=Call]').textContent()).to.include(`circleci_post POST ${PIPELINE}`);
      await screenshot(page, `${store}-decided-laptop`, docs);
    });

    it('asks for a reason to reject (the browser and the server), and the agent is told it', async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-80')));
      await page.goto(`${d.base}/console`);
      await page.click(`#${id} a.reject`);
      await page.waitForURL(`${d.base}/console/approvals/${id}/reject`);
      await page.click('form.confirm button.reject');
      const reason = page.locator('form.confirm textarea[name=reason]');
      expect(await reason.evaluate((el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).to.equal(true);
      // Past the browser's check (spaces only), the server refuses it and keeps the page.
      await reason.fill('   ');
      await page.click('form.confirm button.reject');
      expect(await page.textContent('.banner.error')).to.equal('Say why you reject the call: the reason is told to the caller.');
      await page.fill('form.confirm textarea[name=reason]', 'PLAT-80 holds the audit trail.');
      await page.click('form.confirm button.reject');
      await page.waitForURL(/notice=rejected/);
      expect(textOf(await d.call('alice', 'jira_delete', issue('PLAT-80')))).to.include(
        `olga rejected approval ${id} for this call: PLAT-80 holds the audit trail.`,
      );
    });

    it('folds a big body, with the whole of it one click away', async () => {
      const parameters = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`service_${i}`, `registry.acme.example/service-${i}:4.2.${i}`]));
      const id = heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'release/4.2', parameters } }));
      const card = page.locator(`#${id}`);
      await card.waitFor({ timeout: 15_000 });
      const body = card.locator('li[data-key=body]');
      expect(await body.locator('summary .value').textContent()).to.match(/^\{"branch":"release\/4\.2","parameters":\{"service_0":.*\.\.\.$/);
      expect(await body.locator('pre.value').isVisible()).to.equal(false);
      await body.locator('.show-all').click();
      expect(JSON.parse((await body.locator('pre.value').textContent())!)).to.deep.equal({ branch: 'release/4.2', parameters });
      await screenshot(page, `${store}-approvals-laptop-folded`, false);
    });

    it("rejects a runaway agent's held calls at once, with one reason, after a confirmation", async () => {
      const ids: string[] = [];
      for (const key of ['PLAT-90', 'PLAT-91', 'PLAT-92']) ids.push(heldApproval(await d.call('alice', 'jira_delete', issue(key))));
      await page.goto(`${d.base}/console`);
      await page.locator(`#${ids[2]}`).waitFor();
      await page.click(`#${ids[0]} a.bulk`);
      await page.waitForURL(`${d.base}/console/approvals/bulk-reject?subject=alice`);
      expect(await page.textContent('h1')).to.equal("Reject alice's held calls?");
      expect(await page.locator('ul.picks input[type=checkbox]:checked').count()).to.equal(3);
      // One of them is left to decide on its own.
      await page.uncheck(`input[value="${ids[1]}"]`);
      await page.fill('form.confirm textarea[name=reason]', 'A runaway loop: stop and check the prompt.');
      await screenshot(page, `${store}-bulk-reject-laptop`, docs);
      await page.click('form.confirm button.reject');
      await page.waitForURL(/notice=rejected-several/);
      expect(await page.textContent('.banner.notice')).to.equal("Rejected 2 of alice's held calls: their retries are refused, with your reason.");
      expect(await page.locator(`#${ids[1]}`).count()).to.equal(1);
      expect(await page.locator(`#${ids[0]}`).count()).to.equal(0);
      for (const key of ['PLAT-90', 'PLAT-92'])
        expect(textOf(await d.call('alice', 'jira_delete', issue(key)))).to.include('for this call: A runaway loop: stop and check the prompt.');
      await receiver.waitFor('both rejections', (r) => [ids[0], ids[2]].every((id) => r.events.some((e) => e.id === `${id}.rejected`)));
    });

    it('reads on a phone: the approval, its confirmation and the decided tab', async () => {
      const phone = await browser.newContext({ viewport: VIEWPORTS.phone, storageState: await page.context().storageState() });
      const p = await phone.newPage();
      const id = heldApproval(await d.call('rene', 'circleci_post', { path: PIPELINE, body: { branch: 'hotfix/login' } }));
      for (const [name, path] of [
        ['approval', `/console/approvals/${id}`],
        ['confirm-grant', `/console/approvals/${id}/grant`],
        ['decided', '/console/decided'],
      ] as const) {
        await p.goto(`${d.base}${path}`);
        expect(await overflowsSideways(p), name).to.equal(false);
        await screenshot(p, `${store}-${name}-phone`, docs && name !== 'decided');
      }
      await phone.close();
    });

    it('sent only events the receiver could verify: every one signed, none refused', () => {
      expect(receiver.posts.length).to.be.greaterThan(8);
      const refused = receiver.posts.filter((p) => p.verified !== null && 'refused' in p.verified);
      expect(refused.map((p) => (p.verified as { refused: string }).refused)).to.deep.equal([]);
      expect(new Set(receiver.events.map((e) => e.type))).to.deep.equal(new Set(['approval.held', 'approval.granted', 'approval.rejected']));
    });
  });
}
