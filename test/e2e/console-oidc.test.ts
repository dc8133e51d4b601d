import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'chai';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { ConsoleDeployment, heldApproval, textOf, type Person, type StoreKind } from '../console/support/console-deployment.js';
import { launchChromium, screenshot, VIEWPORTS } from '../console/support/browser.js';

for (const store of ['sqlite', 'redis'] as const satisfies readonly StoreKind[]) {
  describe(`approvals console in Chromium, signed in at an OpenID provider (${store} store)`, function () {
    this.timeout(90_000);
    let d: ConsoleDeployment;
    let browser: Browser;
    let olga: Page;
    let callback: string | undefined;

    /** The whole sign-in as a person does it: the console's button, the provider's login page, back. */
    const signIn = async (context: BrowserContext, person: Person): Promise<Page> => {
      const page = await context.newPage();
      page.on('request', (r) => {
        if (r.url().startsWith(`${d.base}/console/callback?`)) callback = r.url();
      });
      await page.goto(`${d.base}/console`);
      await page.click('form.signin button');
      await page.waitForURL((url) => url.href.startsWith(d.provider!.issuer));
      await page.fill('input[name=login]', person);
      await page.fill('input[name=password]', 'any password the loopback provider accepts');
      await page.click('button[type=submit]');
      await page.waitForURL(`${d.base}/console`);
      return page;
    };

    before(async () => {
      d = await ConsoleDeployment.start({ store, auth: 'oidc' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await d?.close();
    });

    it('signs in with the authorization code flow and PKCE; subject and groups come from the ID token', async () => {
      const context = await browser.newContext({ viewport: VIEWPORTS.laptop });
      const first = await context.newPage();
      await first.goto(`${d.base}/console`);
      expect(await first.textContent('form.signin button')).to.equal(`Sign in with ${new URL(d.provider!.issuer).host}`);
      await screenshot(first, `${store}-signin-oidc-laptop`, store === 'sqlite');
      await first.close();
      olga = await signIn(context, 'olga');
      expect(await olga.textContent('.who')).to.match(/olga\s+approver/);
      const authorize = d.provider!.authorizeRequests.at(-1)!;
      expect(Object.fromEntries([...authorize].filter(([k]) => !['state', 'nonce', 'code_challenge'].includes(k)))).to.deep.equal({
        client_id: 'mcp-console',
        redirect_uri: `${d.base}/console/callback`,
        response_type: 'code',
        scope: 'openid groups',
        code_challenge_method: 'S256',
      });
      const token = d.provider!.tokenRequests.at(-1)!;
      expect(token.get('grant_type')).to.equal('authorization_code');
      // The verifier sent to /token is the one whose S256 challenge went to /authorize; no secret in the form.
      expect(createHash('sha256').update(token.get('code_verifier')!).digest('base64url')).to.equal(authorize.get('code_challenge'));
      expect(token.has('client_secret')).to.equal(false);
      const session = (await context.cookies()).find((c) => c.name === 'mcp_console')!;
      expect(session).to.deep.include({ httpOnly: true, sameSite: 'Strict' });
      leakAudit.addCanaries([session.value]);
    });

    it("refuses the provider's redirect when it is replayed", async () => {
      const replay = await olga.context().newPage();
      const answer = await replay.goto(callback!);
      expect(answer!.status()).to.equal(400);
      expect(await replay.textContent('.banner.error')).to.equal('This sign-in was not started in this browser, or took too long; start again.');
      await replay.close();
    });

    it("lets the approver grant a held call of an agent holding the provider's token; its retry runs once", async () => {
      const id = heldApproval(await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/OIDC-1' }));
      const card = olga.locator(`#${id}`);
      await card.waitFor({ timeout: 15_000 });
      expect(await card.locator('dd').first().textContent()).to.equal('alice developers via oidc');
      await card.locator('a.grant').click();
      await olga.click('form.confirm button.grant');
      await olga.waitForURL(/notice=granted/);
      const ran = await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/OIDC-1' });
      expect(ran.isError, textOf(ran)).to.equal(undefined);
      expect(heldApproval(await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/OIDC-1' }))).not.to.equal(id);
    });

    it('shows someone the provider puts in no approver group the list, without buttons', async () => {
      const dave = await signIn(await browser.newContext({ viewport: VIEWPORTS.laptop }), 'dave');
      expect(await dave.textContent('.who')).to.match(/dave\s+viewer/);
      const id = heldApproval(await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/OIDC-2' }));
      await dave.locator(`#${id}`).waitFor({ timeout: 15_000 });
      expect(await dave.locator('#pending .actions').count()).to.equal(0);
    });
  });
}
