import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'chai';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { ConsoleDeployment, docsPolicyRuleCount, heldApproval, textOf, type StoreKind } from '../console/support/console-deployment.js';
import { launchChromium, overflowsSideways, screenshot, VIEWPORTS, type PageGlobals } from '../console/support/browser.js';

const issue = (key: string): { path: string } => ({ path: `/rest/api/3/issue/${key}` });

/** A forged form post from inside a signed-in page: `csrf` true sends the page's own token. */
function forgeGrant(page: Page, id: string, csrf: boolean): Promise<number> {
  return page.evaluate(
    async ([approval, withToken]) => {
      const token = (globalThis as unknown as PageGlobals).document.querySelector('input[name=csrf]')!.value;
      const response = await fetch(`/console/approvals/${approval}/grant`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: withToken ? `csrf=${encodeURIComponent(token)}` : '',
      });
      return response.status;
    },
    [id, csrf] as const,
  );
}

for (const store of ['sqlite', 'redis'] as const satisfies readonly StoreKind[]) {
  // The SQLite run's screenshots are the ones docs/console.md shows.
  const docs = store === 'sqlite';

  describe(`approvals console in Chromium (bearer tokens, ${store} store)`, function () {
    this.timeout(90_000);
    let d: ConsoleDeployment;
    let browser: Browser;
    let olga: BrowserContext;
    let page: Page;
    /** Every origin the approver's browser fetched anything from. */
    const origins = new Set<string>();

    const signIn = async (context: BrowserContext, token: string): Promise<Page> => {
      const p = await context.newPage();
      await p.goto(`${d.base}/console`);
      await p.fill('input[name=token]', token);
      await p.click('form.signin button');
      await p.waitForURL(`${d.base}/console`);
      return p;
    };

    before(async () => {
      d = await ConsoleDeployment.start({ store });
      browser = await launchChromium();
      olga = await browser.newContext({ viewport: VIEWPORTS.laptop });
      olga.on('request', (r) => origins.add(new URL(r.url()).origin));
    });
    after(async () => {
      await browser?.close();
      await d?.close();
    });

    it('signs an approver in with a pasted token, behind an HttpOnly, SameSite=Strict cookie', async () => {
      const first = await olga.newPage();
      await first.goto(`${d.base}/console`);
      expect(first.url()).to.equal(`${d.base}/console/signin`);
      await screenshot(first, `${store}-signin-laptop`, docs);
      await first.close();
      page = await signIn(olga, d.tokens.olga);
      expect(await page.textContent('.who')).to.match(/olga\s+approver/);
      expect(await page.textContent('#pending')).to.include('Nothing is waiting for approval.');
      const session = (await olga.cookies()).find((c) => c.name === 'mcp_console')!;
      expect(session).to.deep.include({ httpOnly: true, sameSite: 'Strict', path: '/console', secure: false });
      // The store keeps only its hash: the suite's leak check looks for it in the store and the logs.
      leakAudit.addCanaries([session.value]);
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.cookie)).not.to.include('mcp_console=');
    });

    it("shows a held call without a reload; a grant lets the agent's retry run once", async () => {
      await page.evaluate(() => void ((globalThis as unknown as PageGlobals).sameDocument = true));
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-42')));
      const card = page.locator(`#${id}`);
      await card.waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).sameDocument)).to.equal(true);
      expect(await card.locator('.request').textContent()).to.equal('DELETE /rest/api/3/issue/PLAT-42');
      expect(await card.locator('dd').first().textContent()).to.match(/^alice developers via tokens$/);
      expect(await card.locator('.time-left').textContent()).to.match(/^1[45] min \d\d s left$/);
      // A second held call, from the release engineer, so the screenshot shows argument shapes and values.
      const pipeline = heldApproval(
        await d.call('rene', 'circleci_post', {
          path: '/api/v2/project/gh/acme/app/pipeline',
          body: { branch: 'main', parameters: { deploy_env: 'production' } },
        }),
      );
      await page.locator(`#${pipeline}`).waitFor();
      await screenshot(page, `${store}-approvals-laptop`, docs);

      await card.locator('a.grant').click();
      await page.waitForURL(`${d.base}/console/approvals/${id}/grant`);
      await page.click('form.confirm button.grant');
      await page.waitForURL(/notice=granted/);
      expect(await page.textContent('.banner.notice')).to.equal(`Granted ${id}: the caller's next identical call runs once.`);
      expect(await page.locator(`#${id}`).count()).to.equal(0);
      const ran = await d.call('alice', 'jira_delete', issue('PLAT-42'));
      expect(ran.isError, textOf(ran)).to.equal(undefined);
      expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-42')))).not.to.equal(id);
      expect(d.jira.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).to.deep.equal(['/rest/api/3/issue/PLAT-42']);
    });

    it('rejects only with a reason (the browser asks for one), and the agent is told it', async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-43')));
      const card = page.locator(`#${id}`);
      await card.waitFor({ timeout: 15_000 });
      await card.locator('a.reject').click();
      await page.waitForURL(`${d.base}/console/approvals/${id}/reject`);
      await page.click('form.confirm button.reject');
      const reason = page.locator('form.confirm textarea[name=reason]');
      expect(await reason.evaluate((el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).to.equal(true);
      expect(page.url()).to.equal(`${d.base}/console/approvals/${id}/reject`);
      await reason.fill('PLAT-43 holds the audit trail; archive it instead.');
      await page.click('form.confirm button.reject');
      await page.waitForURL(/notice=rejected/);
      const refused = await d.call('alice', 'jira_delete', issue('PLAT-43'));
      expect(refused._meta?.code).to.equal('policy_denied');
      expect(textOf(refused)).to.include(`olga rejected approval ${id} for this call: PLAT-43 holds the audit trail; archive it instead.`);
    });

    it('shows a non-approver the list without buttons, and refuses forged posts (no token, or not an approver)', async () => {
      const dave = await signIn(await browser.newContext({ viewport: VIEWPORTS.laptop }), d.tokens.dave);
      const id = heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-45')));
      await dave.locator(`#${id}`).waitFor({ timeout: 15_000 });
      expect(await dave.textContent('.who')).to.match(/dave\s+viewer/);
      expect(await dave.locator('#pending .actions').count()).to.equal(0);
      expect(await forgeGrant(dave, id, true)).to.equal(403);
      await page.locator(`#${id}`).waitFor({ timeout: 15_000 });
      expect(await forgeGrant(page, id, false)).to.equal(403);
      expect(heldApproval(await d.call('alice', 'jira_delete', issue('PLAT-45')))).to.equal(id);
      await dave.context().close();
    });

    it('does not let an approver grant their own call, even by posting the form themselves', async () => {
      const id = heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-46')));
      const card = page.locator(`#${id}`);
      await card.waitFor({ timeout: 15_000 });
      expect(await card.locator('.own').textContent()).to.equal('olga asked for this call, so another approver must decide it.');
      expect(await card.locator('.actions').count()).to.equal(0);
      expect(await forgeGrant(page, id, true)).to.equal(403);
      expect(heldApproval(await d.call('olga', 'jira_delete', issue('PLAT-46')))).to.equal(id);
    });

    it('shows recent activity from the audit log, filtered, with the chain verified', async () => {
      await page.goto(`${d.base}/console/activity`);
      expect(await page.textContent('.chain.ok')).to.match(/^Audit chain verified: \d+ records in /);
      await page.selectOption('select[name=outcome]', 'rejected');
      await page.click('form.filters button');
      await page.waitForURL(/outcome=rejected/);
      const rows = page.locator('table.activity tbody tr');
      expect(await rows.count()).to.equal(1);
      expect(await rows.first().textContent())
        .to.include('olga')
        .and.to.include('PLAT-43 holds the audit trail');
      await page.goto(`${d.base}/console/activity`);
      await screenshot(page, `${store}-activity-laptop`, docs);
    });

    it('shows the policy in force and explains whether a call would be allowed', async () => {
      await page.goto(`${d.base}/console/policy`);
      expect(await page.locator('table.rules tbody tr').count()).to.equal(docsPolicyRuleCount());
      await page.selectOption('select[name=tool]', 'jira_post');
      await page.fill('textarea[name=args]', '{"path": "/rest/api/3/issue", "body": {"fields": {"project": {"key": "SEC"}}}}');
      await page.fill('input[name=subject]', 'alice');
      await page.fill('input[name=groups]', 'developers');
      await page.click('form.explain button');
      expect(await page.textContent('.decision')).to.equal(
        'Denied by rule no-agent-issues-in-the-security-project: Security issues are handled outside agents.',
      );
      await screenshot(page, `${store}-policy-laptop`, docs);
    });

    it('reads on a phone: no page scrolls sideways', async () => {
      const phone = await browser.newContext({ viewport: VIEWPORTS.phone, storageState: await olga.storageState() });
      const p = await phone.newPage();
      for (const [name, path] of [
        ['approvals', '/console'],
        ['decided', '/console/decided'],
        ['activity', '/console/activity'],
        ['policy', '/console/policy'],
      ] as const) {
        await p.goto(`${d.base}${path}`);
        expect(await overflowsSideways(p), name).to.equal(false);
        await screenshot(p, `${store}-${name}-phone`, docs);
      }
      await phone.close();
    });

    it('loads nothing from anywhere but the console itself', () => {
      expect([...origins]).to.deep.equal([new URL(d.base).origin]);
    });

    it('signs out: the cookie that was kept no longer opens the console', async () => {
      const kept = await olga.storageState();
      await page.goto(`${d.base}/console`);
      await page.click('.who button');
      await page.waitForURL(`${d.base}/console/signin?notice=signed-out`);
      expect(await page.textContent('.banner.notice')).to.equal('You are signed out.');
      const replay = await browser.newContext({ storageState: kept });
      const p = await replay.newPage();
      await p.goto(`${d.base}/console`);
      expect(p.url()).to.equal(`${d.base}/console/signin`);
      await replay.close();
    });
  });
}
