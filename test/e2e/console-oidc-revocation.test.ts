// A console session signed in at an OpenID provider is re-checked there (its userinfo endpoint, with the
// session's access token) once MCP_CONSOLE_SESSION_RECHECK_SECONDS have passed: taking an approver out of the
// approvers group at the provider ends the session, and the browser is sent to sign in again.
import type { Browser, Page } from 'playwright-core';
import { expect } from 'chai';
import { ConsoleDeployment, heldApproval, type Person } from '../console/support/console-deployment.js';
import { launchChromium, VIEWPORTS } from '../console/support/browser.js';

const RECHECK_SECONDS = 1;
const pastTheInterval = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, RECHECK_SECONDS * 1000 + 300));

describe('console sessions signed in at an OpenID provider, after the provider changes the groups (Chromium)', function () {
  this.timeout(90_000);
  let d: ConsoleDeployment;
  let browser: Browser;

  const signIn = async (person: Person): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: VIEWPORTS.laptop })).newPage();
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
    d = await ConsoleDeployment.start({ store: 'sqlite', auth: 'oidc', env: { MCP_CONSOLE_SESSION_RECHECK_SECONDS: String(RECHECK_SECONDS) } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await d?.close();
  });

  it('keeps the session while the provider still names the same groups', async () => {
    const rene = await signIn('rene');
    await pastTheInterval();
    await rene.goto(`${d.base}/console/activity`);
    expect(rene.url()).to.equal(`${d.base}/console/activity`);
    expect(await rene.textContent('.who')).to.match(/rene\s+viewer/);
  });

  it("ends an approver's session once the provider takes the approvers group away: the next page is the sign-in", async () => {
    const olga = await signIn('olga');
    expect(await olga.textContent('.who')).to.match(/olga\s+approver/);
    const id = heldApproval(await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/OIDC-9' }));
    await olga.locator(`#${id}`).waitFor({ timeout: 15_000 });
    d.accounts.olga = ['developers'];
    await pastTheInterval();
    await olga.goto(`${d.base}/console`);
    expect(olga.url()).to.equal(`${d.base}/console/signin?notice=ended`);
    expect(await olga.textContent('.banner.error')).to.equal('Your sign-in has ended: your token or your groups changed. Sign in again.');
    expect((await olga.context().cookies()).some((c) => c.name === 'mcp_console')).to.equal(false);
    // Signed in again, olga is what the provider says now: a viewer, with no buttons to decide.
    await olga.click('form.signin button');
    await olga.waitForURL(`${d.base}/console`);
    expect(await olga.textContent('.who')).to.match(/olga\s+viewer/);
    expect(await olga.locator(`#${id} button`).count()).to.equal(0);
    // Nothing was granted: alice's retry is held still.
    expect((await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/OIDC-9' }))._meta?.code).to.equal('approval_required');
  });
});
